import { Controller, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { AutomationsService } from './automations.service';
import { RecurringScheduleStatus } from './recurring-schedule.entity';

/** Admin API (extension): a paused recurring schedule fires nothing; resumed, it fires from its next occurrence. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/recurring-schedules/:id')
export class AdminRecurringSchedulesController {
  constructor(private readonly automations: AutomationsService) {}

  @Post('pause')
  pause(@Param('id', IdParamPipe) id: string) {
    return this.set(id, 'paused');
  }

  @Post('resume')
  resume(@Param('id', IdParamPipe) id: string) {
    return this.set(id, 'active');
  }

  private async set(id: string, status: RecurringScheduleStatus) {
    const s = await this.automations.setRecurringScheduleStatus(id, status);
    return { data: { id: s.id, status: s.status, nextOccurrenceAt: s.nextOccurrenceAt?.toISOString() ?? null } };
  }
}
