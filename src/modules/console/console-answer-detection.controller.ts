import { Body, Controller, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { AnswerDetectionReportResponse } from '../answer-detection/answer-detection-report.response';
import { CallLabelResponse } from '../answer-detection/call-label.response';
import { CallLabelsService } from '../answer-detection/call-labels.service';
import { AnswerDetectionQueryDto } from '../answer-detection/dto/answer-detection-query.dto';
import { LabelCallDto } from '../answer-detection/dto/label-call.dto';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** A reviewer's labels from the call page and the detection report page (docs/answer-detection.md). */
@ApiTags('Calls')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleAnswerDetectionController {
  constructor(private readonly labels: CallLabelsService) {}

  @Put('calls/:id/label')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminLabelCall',
    summary: 'Record who a person heard answer an ended call of the chosen world (PUT /api/v1/calls/{id}/label)',
  })
  @ApiBody({ type: LabelCallDto })
  @ApiDataResponse(CallLabelResponse)
  @ApiAdminErrors('INVALID_STATE')
  async put(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    // Validated once the call is found, as the public route does: another world's call is 404 whatever the body.
    @Body() body: unknown,
  ): Promise<{ data: CallLabelResponse }> {
    return { data: CallLabelResponse.from(await this.labels.put(world, id, body)) };
  }

  @Get('calls/:id/label')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminGetCallLabel',
    summary: "A call's label; 404 NOT_FOUND when it has none (GET /api/v1/calls/{id}/label)",
  })
  @ApiDataResponse(CallLabelResponse)
  @ApiAdminErrors()
  async get(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: CallLabelResponse }> {
    return { data: CallLabelResponse.from(await this.labels.get(world, id)) };
  }

  @Get('reports/answer-detection')
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminGetAnswerDetectionReport',
    summary:
      "Answer detection against people's labels, per voice platform, in the chosen world (GET /api/v1/reports/answer-detection)",
  })
  @ApiDataResponse(AnswerDetectionReportResponse)
  @ApiAdminErrors()
  async report(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: AnswerDetectionQueryDto,
  ): Promise<{ data: AnswerDetectionReportResponse }> {
    return { data: { platforms: await this.labels.report(world, query) } };
  }
}
