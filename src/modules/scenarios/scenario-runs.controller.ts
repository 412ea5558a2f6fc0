import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { ScenarioRunResponse } from './scenario-run.response';
import { ScenarioRunsService } from './scenario-runs.service';

@ApiTags('Scenarios (extension)')
@Controller('api/v1/scenario-runs')
export class ScenarioRunsController {
  constructor(private readonly runs: ScenarioRunsService) {}

  @Get(':id')
  @RequireScope('cases:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getScenarioRun',
    summary: 'A scenario run: its transcript and each expectation with what was seen',
    description:
      '`status` moves queued -> running -> passed | failed | error; `expectations` holds one result per string of ' +
      'replyIncludes / replyExcludes, per expected tool call and for handOff once the run ended. Extension ' +
      '(docs/testing-your-assistant.md).',
  })
  @ApiDataResponse(ScenarioRunResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: ScenarioRunResponse }> {
    return { data: await this.runs.get(world, id) };
  }
}
