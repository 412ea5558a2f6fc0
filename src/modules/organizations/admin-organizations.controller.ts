import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { AdminOrganizationResponse } from './admin-organization.response';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationsService } from './organizations.service';

/** Admin API (docs/contracts/admin-api.md): the dashboard creates organizations. Documented in openapi/admin.yaml. */
@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1/organizations')
export class AdminOrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateOrganization', summary: 'Create an organization' })
  @ApiDataResponse(AdminOrganizationResponse, { status: 201 })
  @ApiAdminErrors('UNAUTHORIZED', 'VALIDATION_ERROR')
  async create(@Body() dto: CreateOrganizationDto): Promise<{ data: AdminOrganizationResponse }> {
    return { data: AdminOrganizationResponse.fromOrg(await this.organizations.create(dto)) };
  }
}
