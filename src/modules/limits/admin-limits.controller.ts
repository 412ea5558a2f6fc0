import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CallAdmission } from './call-admission';
import { SetLimitsDto } from './dto/set-limits.dto';
import { LimitsResponse, OrganizationLimitsResponse } from './limits.response';
import { OrganizationLimitsRepository } from './organization-limits.repository';

/** Admin API (docs/contracts/dialer.md): the operator sets an organization's concurrency limit. */
@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/limits')
export class AdminLimitsController {
  constructor(
    private readonly limits: OrganizationLimitsRepository,
    private readonly admission: CallAdmission,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminSetLimits',
    summary: "Set an organization's concurrency limit (GET /api/v1/limits reads it)",
    description:
      'Answers the limits as set with the live and queued calls now. `inboundReserve` (extension) keeps that ' +
      'many of the slots free of outbound calls for inbound callers; omitted, it is reset to 0.',
  })
  @ApiDataResponse(OrganizationLimitsResponse)
  @ApiAdminErrors()
  async set(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: SetLimitsDto,
  ): Promise<{ data: OrganizationLimitsResponse }> {
    await this.limits.save(orgId, {
      maxConcurrentCalls: dto.maxConcurrentCalls,
      inboundReserve: dto.inboundReserve ?? 0,
    });
    return { data: { id: orgId, ...LimitsResponse.from(await this.admission.snapshot(orgId)) } };
  }
}
