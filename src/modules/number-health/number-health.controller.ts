import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { MAX_HEALTH_DAYS, NumberHealthQueryDto } from './dto/number-health-query.dto';
import { NumberHealthResponse } from './number-health.response';
import { NumberHealthService } from './number-health.service';

@ApiTags('Phone numbers (extension)')
@Controller('api/v1/phone-numbers/:id/health')
export class NumberHealthController {
  constructor(private readonly health: NumberHealthService) {}

  @Get()
  @RequireScope('calls:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getPhoneNumberHealth',
    summary: "A caller ID's daily answer figures and status",
    description:
      "The number's outbound calls per UTC day (days with calls only, `days` 1-" +
      `${MAX_HEALTH_DAYS}, default 7) and its status by its own history: \`degraded\` when the last 50 placed ` +
      'calls answer at under half its 30-day rate, `watch` under three quarters. Counted as each call ends, ' +
      "in the key's world; a change of status fires `phone_number.health_changed`. 404 NOT_FOUND for another " +
      "organization's number. Extension (docs/number-health.md).",
  })
  @ApiDataResponse(NumberHealthResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: NumberHealthQueryDto,
  ): Promise<{ data: NumberHealthResponse }> {
    return { data: await this.health.get(world, id, query.days) };
  }
}
