import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CallAdmission } from './call-admission';
import { SetLimitsDto } from './dto/set-limits.dto';
import { LimitsResponse } from './limits.response';
import { OrganizationLimitsRepository } from './organization-limits.repository';

/** Admin API (CONTRACTS §9): the operator sets an organization's concurrency limit. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/limits')
export class AdminLimitsController {
  constructor(
    private readonly limits: OrganizationLimitsRepository,
    private readonly admission: CallAdmission,
  ) {}

  @Post()
  @HttpCode(200)
  async set(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: SetLimitsDto,
  ): Promise<{ data: LimitsResponse & { id: string } }> {
    await this.limits.save(orgId, {
      maxConcurrentCalls: dto.maxConcurrentCalls,
      inboundReserve: dto.inboundReserve ?? 0,
    });
    return { data: { id: orgId, ...LimitsResponse.from(await this.admission.snapshot(orgId)) } };
  }
}
