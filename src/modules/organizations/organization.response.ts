import { ApiProperty } from '@nestjs/swagger';
import { Organization } from './organization.entity';

export class OrganizationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Profile display name', example: 'Acme Dental' }) name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'ops@acme.example' }) contactEmail: string | null;
  @ApiProperty({ type: String, nullable: true, example: '+14155550100' }) contactPhone: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(org: Organization): OrganizationResponse {
    return {
      id: org.id,
      name: org.name,
      description: org.description,
      contactEmail: org.contactEmail,
      contactPhone: org.contactPhone,
      createdAt: org.createdAt.toISOString(),
      updatedAt: org.updatedAt.toISOString(),
    };
  }
}
