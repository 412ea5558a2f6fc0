import { ApiProperty } from '@nestjs/swagger';
import { RETRYABLE_REASONS } from '../audiences/campaign-bounds';
import { FOLLOW_UP_MESSAGE_STATUSES, FollowUpMessageStatus } from './follow-up-message.entity';
import { RECURRING_SCHEDULE_STATUSES, RecurringScheduleStatus } from './recurring-schedule.entity';

/** A recurring schedule as created (POST /admin/v1/organizations/{orgId}/recurring-schedules). */
export class RecurringScheduleResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiProperty({ enum: RECURRING_SCHEDULE_STATUSES }) status: RecurringScheduleStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    description: 'Extension (the dialer): null for a record that only blocks deletes',
  })
  rrule: string | null;
  @ApiProperty({ example: 'America/New_York', description: 'IANA zone the rule is read in' }) timeZone: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next campaign is placed; null without a rule',
  })
  nextOccurrenceAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** Pausing or resuming a recurring schedule (extension). */
export class RecurringScheduleStateResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: RECURRING_SCHEDULE_STATUSES }) status: RecurringScheduleStatus;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The next occurrence after now (occurrences missed while paused are not made up); null without a rule',
  })
  nextOccurrenceAt: string | null;
}

/** The template a message follow-up sends. */
export class FollowUpMessageTemplateResponse {
  @ApiProperty({ example: 'missed_call_followup' }) templateName: string;
  @ApiProperty({ example: 'en_US' }) templateLanguage: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { '1': 'Ada' },
    description: "Values of the template's placeholders",
  })
  variables: Record<string, string>;
}

/** A follow-up campaign as created (POST /admin/v1/organizations/{orgId}/follow-up-campaigns). */
export class FollowUpCampaignResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 3600,
    description: 'Extension (the dialer): the follow-up call comes this long after the trigger; null: no call',
  })
  delaySeconds: number | null;
  @ApiProperty({ enum: RETRYABLE_REASONS, isArray: true, description: 'endedReasons that trigger the follow-up' })
  triggerOn: string[];
  @ApiProperty({
    type: FollowUpMessageTemplateResponse,
    nullable: true,
    description: 'Extension (the dialer): the template sent after a triggering call; null: no message',
  })
  message: FollowUpMessageTemplateResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** What a message follow-up did about one call that triggered it (extension). */
export class FollowUpMessageResponse {
  @ApiProperty({ format: 'uuid', description: 'The call that triggered it' }) callId: string;
  @ApiProperty({
    enum: FOLLOW_UP_MESSAGE_STATUSES,
    description: '`sending` stays only when the process stopped between claiming the send and its outcome',
  })
  status: FollowUpMessageStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'NO_CONVERSATION',
    description:
      "Why nothing was sent: NO_CONVERSATION, DO_NOT_CALL or the send's error code (e.g. TEMPLATE_NOT_FOUND)",
  })
  reason: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) conversationId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The sent message' })
  messageId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
