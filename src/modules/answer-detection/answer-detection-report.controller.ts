import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AnswerDetectionReportResponse } from './answer-detection-report.response';
import { CallLabelsService } from './call-labels.service';
import { AnswerDetectionQueryDto } from './dto/answer-detection-query.dto';

@ApiTags('Reports (extension)')
@Controller('api/v1/reports/answer-detection')
export class AnswerDetectionReportController {
  constructor(private readonly labels: CallLabelsService) {}

  @Get()
  @RequireScope('calls:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getAnswerDetectionReport',
    summary: 'How often answer detection agreed with a person, per voice platform',
    description:
      "Labelled calls (PUT /api/v1/calls/{id}/label) compared with what the platform detected (the call's " +
      '`answeredBy`): a confusion matrix per platform, with voicemail precision and recall. Filters: `from` / ' +
      "`to` on the call's creation, `platform`, `campaignId`. A test key reports on test calls (all on the " +
      'simulator). Extension (docs/answer-detection.md).',
  })
  @ApiDataResponse(AnswerDetectionReportResponse)
  @ApiErrors('VALIDATION_ERROR')
  async get(
    @KeyWorld() world: World,
    @Query() query: AnswerDetectionQueryDto,
  ): Promise<{ data: AnswerDetectionReportResponse }> {
    return { data: { platforms: await this.labels.report(world, query) } };
  }
}
