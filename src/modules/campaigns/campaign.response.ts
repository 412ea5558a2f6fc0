import { ApiProperty } from '@nestjs/swagger';
import { CampaignVariantDto } from './dto/create-campaign.dto';
import { VoicemailPolicyResponse } from '../call-outcomes/voicemail-policy';
import { CAMPAIGN_STATUSES, Campaign, CampaignStatus } from './campaign.entity';
import { CampaignProgress } from './campaigns.repository';
import { CallingWindowDto, RetryPolicyDto } from './dto/create-campaign.dto';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

export class CampaignAudienceResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) groupId: string | null;
  @ApiProperty({ type: [String], nullable: true }) contactIds: string[] | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'How many `rows` were given (each accepted row is an entry; refused and repeated rows are not)',
  })
  rowCount: number | null;
}

export class CampaignCountsResponse {
  @ApiProperty() total: number;
  @ApiProperty() pending: number;
  @ApiProperty() inProgress: number;
  @ApiProperty() done: number;
  @ApiProperty() skipped: number;
}

/** A campaign (extension, docs/contracts/dialer.md); also the `data` of campaign.* events. */
export class CampaignResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: CAMPAIGN_STATUSES }) status: CampaignStatus;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'OUTBOUND_MINUTES_EXHAUSTED',
    description:
      'Why the engine paused the campaign: OUTBOUND_MINUTES_EXHAUSTED or OUTBOUND_PLAN_REQUIRED (it resumes by ' +
      'itself once calls can be placed again), or DAILY_NUMBER_CAP (extension: every number reached ' +
      "`maxCallsPerNumberPerDay`; it resumes the next day in the window's time zone); null when paused by hand or " +
      'not paused',
  })
  pausedReason: string | null;
  @ApiProperty({ example: '+14155550100', description: 'The caller ID; with `fromNumbers`, the first of them' })
  from: string;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Extension: the numbers calls are spread over (each call says which it used); null: `from` alone',
  })
  fromNumbers: string[] | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Extension: calls per number per day; null: no cap' })
  maxCallsPerNumberPerDay: number | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({
    type: [CampaignVariantDto],
    nullable: true,
    description:
      'Extension (docs/testing-your-assistant.md, "A/B"): the case versions its entries are split between; null: ' +
      "the case's current version",
  })
  variants: CampaignVariantDto[] | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiProperty({ type: String, nullable: true }) firstMessage: string | null;
  @ApiProperty({ type: CampaignAudienceResponse }) audience: CampaignAudienceResponse;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startAt: string | null;
  @ApiProperty({ type: CallingWindowDto, nullable: true }) window: CallingWindowDto | null;
  @ApiProperty({ type: Number, nullable: true }) maxConcurrent: number | null;
  @ApiProperty({ type: Number, nullable: true }) callsPerMinute: number | null;
  @ApiProperty({ type: RetryPolicyDto, nullable: true }) retry: RetryPolicyDto | null;
  @ApiProperty({ type: CampaignCountsResponse }) counts: CampaignCountsResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { 'customer-ended-call': 180, 'customer-did-not-answer': 20 },
    description: 'Final endedReason of each done entry -> number of entries',
  })
  outcomes: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { human: 150, voicemail: 45 },
    description: 'Extension: ended calls (every attempt) by `answeredBy` (`human`, `voicemail`, `screener`, `unknown`)',
  })
  answeredBy: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { true: 120, false: 30 },
    description: "Extension: ended calls (every attempt) by their post-call analysis's `success` (`true`, `false`)",
  })
  success: Record<string, number>;
  @ApiProperty({
    type: VoicemailPolicyResponse,
    nullable: true,
    description: 'Extension (docs/tools.md); null: not set here',
  })
  voicemail: VoicemailPolicyResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiLivemode() livemode: boolean;

  static from(c: Campaign, progress: CampaignProgress): CampaignResponse {
    const a = c.audience;
    return {
      id: c.id,
      name: c.name,
      status: c.status,
      pausedReason: c.pausedReason,
      from: c.callFrom,
      fromNumbers: c.fromNumbers,
      maxCallsPerNumberPerDay: c.maxCallsPerNumberPerDay,
      caseId: c.caseId,
      variants: c.variants,
      assistantConfigId: c.assistantConfigId,
      firstMessage: c.firstMessage,
      audience: {
        groupId: 'groupId' in a ? a.groupId : null,
        contactIds: 'contactIds' in a ? a.contactIds : null,
        rowCount: 'rows' in a ? a.rows : null,
      },
      startAt: c.startAt?.toISOString() ?? null,
      window: c.window,
      maxConcurrent: c.maxConcurrent,
      callsPerMinute: c.callsPerMinute,
      retry: c.retry,
      counts: progress.counts,
      outcomes: progress.outcomes,
      answeredBy: progress.answeredBy,
      success: progress.success,
      voicemail: c.voicemail ?? null,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      livemode: c.livemode,
    };
  }
}
