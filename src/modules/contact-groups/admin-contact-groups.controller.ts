import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { ContactGroupResponse } from './contact-group.response';
import { ContactGroupsService } from './contact-groups.service';
import { CreateContactGroupDto } from './dto/create-contact-group.dto';

@ApiTags('Contacts')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/contact-groups')
export class AdminContactGroupsController {
  constructor(private readonly groups: ContactGroupsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreateContactGroup',
    summary: 'Create a contact group (empty; contacts join it through the public API)',
    description: '422 MAX_CONTACT_GROUPS at the cap of 100 (extension).',
  })
  @ApiDataResponse(ContactGroupResponse, { status: 201 })
  @ApiAdminErrors('MAX_CONTACT_GROUPS')
  async create(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateContactGroupDto,
  ): Promise<{ data: ContactGroupResponse }> {
    return { data: ContactGroupResponse.from(await this.groups.create(orgId, dto.name), 0) };
  }
}
