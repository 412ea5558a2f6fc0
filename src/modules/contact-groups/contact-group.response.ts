import { ApiProperty } from '@nestjs/swagger';
import { ContactGroup } from './contact-group.entity';

export class ContactGroupResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'VIP patients' }) name: string;
  @ApiProperty({ description: 'Number of contacts in the group', example: 12 }) contactCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(group: ContactGroup, contactCount: number): ContactGroupResponse {
    return { id: group.id, name: group.name, contactCount, createdAt: group.createdAt.toISOString() };
  }
}
