import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FollowUpCampaign } from '../automations/follow-up-campaign.entity';
import { RecurringSchedule } from '../automations/recurring-schedule.entity';

export class AutomationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['recurring-schedule', 'follow-up-campaign'] }) kind:
    'recurring-schedule' | 'follow-up-campaign';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiPropertyOptional({ enum: ['active', 'paused'], description: 'Recurring schedules only' })
  status?: 'active' | 'paused';
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static fromSchedule(s: RecurringSchedule): AutomationResponse {
    const { id, caseId, assistantConfigId, status } = s;
    return { id, kind: 'recurring-schedule', caseId, assistantConfigId, status, createdAt: s.createdAt.toISOString() };
  }

  static fromCampaign(c: FollowUpCampaign): AutomationResponse {
    const { id, caseId, assistantConfigId } = c;
    return { id, kind: 'follow-up-campaign', caseId, assistantConfigId, createdAt: c.createdAt.toISOString() };
  }
}

export class DailyUsageResponse {
  @ApiProperty({ example: '2026-11-23', description: 'UTC day' }) day: string;
  @ApiProperty() calls: number;
  @ApiProperty({ description: 'Exact talk minutes, outbound and inbound' }) talkMins: number;
  @ApiProperty({ description: 'Billed (started) minutes deducted from the balance' }) deductedMins: number;
}

export class OverviewResponse {
  @ApiProperty({ type: [DailyUsageResponse], description: 'Days of the last 30 with any call, oldest first' })
  minutesByDay: DailyUsageResponse[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { ended: 12, error: 1 },
    description: 'Calls created in the last 30 days, by status',
  })
  callsByStatus: Record<string, number>;
}
