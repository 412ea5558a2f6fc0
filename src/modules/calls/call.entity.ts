import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { AnalysisPlan, CallAnalysis } from '../call-outcomes/analysis-plan';
import type { AnsweredBy } from '../call-outcomes/answered-by';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';
import type { CallTool, CallTransfer, ToolCallRecord } from '../tools/call-tools';
import type { VoiceSettings } from '../assistants/voice-settings';
import type { VoicePlatform } from '../../infra/config/platforms';

/** Public statuses plus the internal claim state `lock-processing` (never shown; reads as not yet dispatched). */
export const CALL_STATUSES = [
  'new',
  'scheduled',
  'lock-processing',
  'processing',
  'ended',
  'cancelled',
  'error',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const PUBLIC_CALL_STATUSES = ['new', 'scheduled', 'processing', 'ended', 'cancelled', 'error'] as const;
/** Statuses in which a call still waits for dispatch: they block deleting its case or assistant. */
export const QUEUED_CALL_STATUSES: readonly CallStatus[] = ['new', 'scheduled', 'lock-processing'];

export const API_CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'ended', 'forwarding'] as const;
export type ApiCallStatus = (typeof API_CALL_STATUSES)[number];

/** A placement a platform failed (unreachable, timeout, 5xx), or skipped while that platform cooled down. */
export interface PlatformAttempt {
  platform: VoicePlatform;
  at: string;
  error: string;
}

export interface TranscriptMessage {
  role: 'assistant' | 'user' | 'system';
  content: string;
  timestamp: number | null;
}

/** An outbound or inbound call, with what was resolved at creation and what the voice platform reported. */
@Entity('calls')
@Index('ix_calls_org_created', ['organizationId', 'createdAt', 'id'])
@Index('ix_calls_due', ['status', 'scheduledAt'], { where: `status IN ('new', 'scheduled')` })
@Index('ix_calls_case_queued', ['caseId'], { where: `status IN ('new', 'scheduled', 'lock-processing')` })
@Index('ix_calls_assistant_queued', ['assistantConfigId'], {
  where: `status IN ('new', 'scheduled', 'lock-processing')`,
})
@Index('ix_calls_contact', ['organizationId', 'contactId'])
// The console's search by number: either end of the call, newest first.
@Index('ix_calls_org_to_created', ['organizationId', 'callTo', 'createdAt', 'id'])
@Index('ix_calls_org_from_created', ['organizationId', 'callFrom', 'createdAt', 'id'])
@Index('ix_calls_campaign', ['campaignId'], { where: 'campaign_id IS NOT NULL' })
/** Admission control counts an organization's live and waiting calls (limits/call-admission.ts). */
@Index('ix_calls_org_active', ['organizationId', 'status'], {
  where: `status IN ('new', 'scheduled', 'lock-processing', 'processing')`,
})
@Index('ux_calls_api_call_id', ['apiCallId'], { unique: true, where: 'api_call_id IS NOT NULL' })
export class Call {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') status: CallStatus;
  @Column('text') direction: 'outbound' | 'inbound';
  @Column('text') callFrom: string;
  @Column('text') callTo: string;
  /** No foreign keys on purpose: deleting a contact never deletes its calls (the id stays as history). */
  @Column('uuid', { nullable: true }) caseId: string | null;
  /** Extension: the version of the case whose content the call used (docs/testing-your-assistant.md). */
  @Column('integer', { nullable: true }) caseVersion: number | null;
  @Column('uuid', { nullable: true }) contactId: string | null;
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  /** Extension (docs/contracts/dialer.md): the campaign, recurring schedule or follow-up campaign that placed the call. */
  @Column('uuid', { nullable: true }) campaignId: string | null;
  @Column('text', { nullable: true }) firstMessage: string | null;
  /** The resolved system prompt injected into the call (not part of the public representation). */
  @Column('text', { nullable: true }) systemPrompt: string | null;
  @Column('text', { array: true, default: () => "'{}'" }) toolIds: string[];
  /** The case's tools as they were when the call was created (docs/tools.md, "Tools"); internal. */
  @Column('jsonb', { default: () => "'[]'" }) tools: CallTool[];
  /** The case's voice-platform tool ids when the call was created; internal. */
  @Column('text', { array: true, default: () => "'{}'" }) integrationToolIds: string[];
  /** Extension: the function tool invocations during the call, at most MAX_TOOL_CALLS_PER_CALL. */
  @Column('jsonb', { default: () => "'[]'" }) toolCalls: ToolCallRecord[];
  /** Extension: the call's transfer to another number, null when there was none. */
  @Column('jsonb', { nullable: true }) transfer: CallTransfer | null;
  @Column('jsonb', { nullable: true }) variableValues: Record<string, string> | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) scheduledAt: Date | null;
  @Column('text', { nullable: true }) apiCallId: string | null;
  /**
   * The platform's ids of attempts it blocked (its concurrency pool was full; the call was deferred and placed
   * again): their late messages carry this call's id in their metadata but must never move it. The latest
   * BLOCKED_ATTEMPTS_KEPT (calls.repository.ts).
   */
  @Column('text', { array: true, default: () => "'{}'" }) blockedApiCallIds: string[];
  @Column('text', { nullable: true }) apiCallStatus: ApiCallStatus | null;
  @Column('text', { nullable: true }) endedReason: string | null;
  @Column('text', { nullable: true }) resultStatus: string | null;
  @Column('text', { nullable: true }) recordingUrl: string | null;
  @Column('double precision', { nullable: true }) durationSeconds: number | null;
  @Column('jsonb', { default: () => "'[]'" }) transcript: TranscriptMessage[];
  /** Extension: what the voice platform charged for the call (USD), null when it did not say. */
  @Column('double precision', { nullable: true }) providerCost: number | null;
  /** The voice platform's own summary of the conversation (not public; post-call analysis reads it). */
  @Column('text', { nullable: true }) providerSummary: string | null;
  /** The voicemail policy resolved at creation, its message rendered (docs/tools.md); null on inbound calls. */
  @Column('jsonb', { nullable: true }) voicemail: VoicemailPolicy | null;
  /** The case's post-call analysis plan as it was when the call was created; null when the case has none. */
  @Column('jsonb', { nullable: true }) analysisPlan: AnalysisPlan | null;
  /** The case's keyterms (one per line there) when the call was created, for the platform's transcriber. */
  @Column('text', { array: true, nullable: true }) keyterms: string[] | null;
  /** Extension: who picked up (`human`, `voicemail`, `screener`, `unknown`), null when nobody did. */
  @Column('text', { nullable: true }) answeredBy: AnsweredBy | null;
  /** Extension: the post-call analysis of an ended call whose case asked for one. */
  @Column('jsonb', { nullable: true }) analysis: CallAnalysis | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) dispatchedAt: Date | null;
  /** Not dispatched again before this (the voice platform asked us to come back later); internal. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) retryAt: Date | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) endedAt: Date | null;
  /**
   * Finished from the platform's call record because its end-of-call report had not come in time (report
   * recovery); the report, when it does come, fills what the record lacked (docs/providers.md). Internal.
   */
  @Column('boolean', { default: false }) awaitingReport: boolean;
  /** false: placed with a `test` key, so always on the simulator, billed nothing, listed only to test keys. */
  @Column('boolean', { default: true }) livemode: boolean;
  /**
   * Extension: the voice platform that serves the call, fixed when the call is made (a test-world call: the
   * simulator; a live one: its `from` number's platform). Placement, supervision, report recovery, a live end and
   * tool answers all go to it, whatever the process's settings say later.
   */
  @Column('text', { default: 'simulator' }) platform: VoicePlatform;
  /** The `from` number's id on the call's platform when the call was made (Vapi's phone number id); internal. */
  @Column('text', { nullable: true }) providerNumberId: string | null;
  /**
   * Placements that failed before the one that served the call (failover, or waiting for the platform:
   * docs/providers.md), oldest first.
   */
  @Column('jsonb', { default: () => "'[]'" }) platformAttempts: PlatformAttempt[];
  /**
   * The earliest failed placement that may have placed the call all the same (a timeout, a reset connection, a
   * 5xx): the platform is asked for the call before it is placed again (docs/providers.md); internal.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) unconfirmedPlacementAt: Date | null;
  /** The outbound assistant's voice settings when the call was made (null: the defaults); internal. */
  @Column('jsonb', { nullable: true }) voiceSettings: VoiceSettings | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
