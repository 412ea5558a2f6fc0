import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationResponse } from './organization.response';
import { OrganizationsService } from './organizations.service';

/** Admin API (CONTRACTS §6): the dashboard creates organizations. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations')
export class AdminOrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Post()
  @HttpCode(201)
  async create(@Body() dto: CreateOrganizationDto): Promise<{ data: OrganizationResponse & { profile: boolean } }> {
    const org = await this.organizations.create(dto);
    return { data: { ...OrganizationResponse.from(org), profile: org.hasProfile } };
  }
}
