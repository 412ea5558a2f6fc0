import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { CallAdmission } from './call-admission';
import { LimitsResponse } from './limits.response';

@ApiTags('Limits (extension)')
@Controller('api/v1/limits')
export class LimitsController {
  constructor(private readonly admission: CallAdmission) {}

  @Get()
  @RequireScope('limits:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getLimits',
    summary: 'Concurrency limit, live calls and calls queued for a slot',
    description:
      'Extension (docs/contracts/dialer.md). Every outbound call, whatever placed it, is admitted at dispatch only while ' +
      'fewer than `maxConcurrentCalls - inboundReserve` calls are live; a call over the cap is not refused: it ' +
      'stays `new` and is dispatched, oldest first, when a slot frees (minutes are reserved only then). Inbound ' +
      'calls are never refused and count as live. The limit is set per organization by the operator (default 10).',
  })
  @ApiDataResponse(LimitsResponse)
  async get(@OrgId() orgId: string): Promise<{ data: LimitsResponse }> {
    return { data: LimitsResponse.from(await this.admission.snapshot(orgId)) };
  }
}
