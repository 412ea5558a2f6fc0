import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { CallLabelResponse } from './call-label.response';
import { CallLabelsService } from './call-labels.service';
import { LabelCallDto } from './dto/label-call.dto';
import { MAX_LABEL_NOTE } from './label-bounds';

@ApiTags('Calls (extension)')
@Controller('api/v1/calls/:id/label')
export class CallLabelsController {
  constructor(private readonly labels: CallLabelsService) {}

  @Put()
  @HttpCode(200)
  @RequireScope('calls:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'labelCall',
    summary: 'Record who a person heard answer an ended call',
    description:
      "A reviewer's verdict (`human`, `voicemail`, `screener`, `unknown`) on an ended call, the truth answer " +
      'detection is measured against (GET /api/v1/reports/answer-detection). A second PUT replaces the first. ' +
      `\`note\` at most ${MAX_LABEL_NOTE} characters. 422 INVALID_STATE for a call that has not ended. Extension ` +
      '(docs/answer-detection.md).',
  })
  @ApiBody({ type: LabelCallDto })
  @ApiDataResponse(CallLabelResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  async put(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    // Validated once the call is found (CallLabelsService.put): another organization's call is 404 whatever the body.
    @Body() body: unknown,
  ): Promise<{ data: CallLabelResponse }> {
    return { data: CallLabelResponse.from(await this.labels.put(world, id, body)) };
  }

  @Get()
  @RequireScope('calls:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getCallLabel',
    summary: "A call's label",
    description:
      'The label recorded by PUT; 404 NOT_FOUND when the call has none. Extension (docs/answer-detection.md).',
  })
  @ApiDataResponse(CallLabelResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CallLabelResponse }> {
    return { data: CallLabelResponse.from(await this.labels.get(world, id)) };
  }
}
