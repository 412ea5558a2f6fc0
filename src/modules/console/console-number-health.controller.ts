import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { NumberHealthQueryDto } from '../number-health/dto/number-health-query.dto';
import { NumberHealthResponse } from '../number-health/number-health.response';
import { NumberHealthService } from '../number-health/number-health.service';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** A number's health for its page in the console (docs/number-health.md). */
@ApiTags('Phone numbers')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/phone-numbers/:id/health')
export class ConsoleNumberHealthController {
  constructor(private readonly health: NumberHealthService) {}

  @Get()
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminGetPhoneNumberHealth',
    summary:
      "A number's daily answer figures and status from the chosen world's calls (GET /api/v1/phone-numbers/{id}/health)",
  })
  @ApiDataResponse(NumberHealthResponse)
  @ApiAdminErrors()
  async get(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: NumberHealthQueryDto,
  ): Promise<{ data: NumberHealthResponse }> {
    return { data: await this.health.get(world, id, query.days) };
  }
}
