import { Controller, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { RecurringScheduleStateResponse } from './automation.response';
import { AutomationsService } from './automations.service';
import { RecurringScheduleStatus } from './recurring-schedule.entity';

/** Admin API (extension): a paused recurring schedule fires nothing; resumed, it fires from its next occurrence. */
@ApiTags('Usage and automations (extension)')
@AdminOnly()
@Controller('admin/v1/recurring-schedules/:id')
export class AdminRecurringSchedulesController {
  constructor(private readonly automations: AutomationsService) {}

  // 201, not 200: these actions answered 201 (Nest's default for POST) before they were documented.
  @Post('pause')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminPauseRecurringSchedule',
    summary: 'Pause a recurring schedule (of any organization): it places nothing until resumed',
  })
  @ApiDataResponse(RecurringScheduleStateResponse, { status: 201 })
  @ApiAdminErrors()
  pause(@Param('id', IdParamPipe) id: string): Promise<{ data: RecurringScheduleStateResponse }> {
    return this.set(id, 'paused');
  }

  @Post('resume')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminResumeRecurringSchedule',
    summary: 'Resume a recurring schedule from its next occurrence after now (missed ones are not made up)',
  })
  @ApiDataResponse(RecurringScheduleStateResponse, { status: 201 })
  @ApiAdminErrors()
  resume(@Param('id', IdParamPipe) id: string): Promise<{ data: RecurringScheduleStateResponse }> {
    return this.set(id, 'active');
  }

  private async set(id: string, status: RecurringScheduleStatus): Promise<{ data: RecurringScheduleStateResponse }> {
    const s = await this.automations.setRecurringScheduleStatus(id, status);
    return { data: { id: s.id, status: s.status, nextOccurrenceAt: s.nextOccurrenceAt?.toISOString() ?? null } };
  }
}
