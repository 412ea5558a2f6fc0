import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { ContactGroupResponse } from './contact-group.response';
import { ContactGroupsService } from './contact-groups.service';
import { CreateContactGroupDto } from './dto/create-contact-group.dto';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/contact-groups')
export class AdminContactGroupsController {
  constructor(private readonly groups: ContactGroupsService) {}

  @Post()
  @HttpCode(201)
  async create(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreateContactGroupDto) {
    return { data: ContactGroupResponse.from(await this.groups.create(orgId, dto.name), 0) };
  }
}
