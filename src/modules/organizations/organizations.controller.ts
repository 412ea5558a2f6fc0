import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../../common/auth/auth-context';
import { RequireScope } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { OrganizationResponse } from './organization.response';
import { OrganizationsService } from './organizations.service';

@ApiTags('Organization')
@Controller('api/v1/organization')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @RequireScope('organization:read')
  @ApiOperation({ operationId: 'getOrganization', summary: 'The organization bound to the API key' })
  @ApiDataResponse(OrganizationResponse)
  @ApiErrors('NOT_FOUND')
  async get(@OrgId() orgId: string): Promise<{ data: OrganizationResponse }> {
    return { data: OrganizationResponse.from(await this.organizations.getProfile(orgId)) };
  }
}
