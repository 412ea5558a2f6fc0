import { ApiProperty } from '@nestjs/swagger';
import { Organization } from './organization.entity';
import { OrganizationResponse } from './organization.response';

/** An organization as the admin API shows it: the public profile plus whether GET /organization serves it. */
export class AdminOrganizationResponse extends OrganizationResponse {
  @ApiProperty({ description: 'false: GET /api/v1/organization answers 404 for this organization' }) profile: boolean;

  static fromOrg(org: Organization): AdminOrganizationResponse {
    return { ...OrganizationResponse.from(org), profile: org.hasProfile };
  }
}
