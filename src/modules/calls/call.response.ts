import { ApiProperty } from '@nestjs/swagger';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';
import { CallAnalysisResponse } from '../call-outcomes/analysis-plan';
import { ANSWERED_BY, AnsweredBy } from '../call-outcomes/answered-by';
import { API_CALL_STATUSES, Call, PUBLIC_CALL_STATUSES } from './call.entity';
import { VOICE_PLATFORMS, VoicePlatform } from '../../infra/config/platforms';
import { MAX_TOOL_CALLS_PER_CALL } from '../tools/call-tools';
import { CallTransferResponse, ToolCallResponse } from '../tools/tool-call.response';

type PublicStatus = (typeof PUBLIC_CALL_STATUSES)[number];

/**
 * The internal claim state `lock-processing` is not a public status: a claimed call has not been dispatched
 * yet, so it reads as what it was before the claim (`scheduled` when it had a time, otherwise `new`).
 */
export function publicStatus(call: Pick<Call, 'status' | 'scheduledAt'>): PublicStatus {
  if (call.status !== 'lock-processing') return call.status;
  return call.scheduledAt ? 'scheduled' : 'new';
}

/**
 * The columns CallResponse.from reads: lists select only these, never the transcript or the resolved system
 * prompt (up to 50,000 characters each per row).
 */
export const CALL_RESPONSE_COLUMNS = [
  'id',
  'status',
  'scheduledAt',
  'direction',
  'callFrom',
  'callTo',
  'caseId',
  'caseVersion',
  'contactId',
  'assistantConfigId',
  'campaignId',
  'firstMessage',
  'apiCallId',
  'apiCallStatus',
  'endedReason',
  'resultStatus',
  'recordingUrl',
  'durationSeconds',
  'providerCost',
  'variableValues',
  'answeredBy',
  'analysis',
  'toolCalls',
  'transfer',
  'createdAt',
  'updatedAt',
  'livemode',
  'platform',
  'platformAttempts',
] as const satisfies readonly (keyof Call)[];

export class PlatformAttemptResponse {
  @ApiProperty({ enum: VOICE_PLATFORMS }) platform: VoicePlatform;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ example: 'vapi-unavailable: 500 Internal Server Error' }) error: string;
}

export class TranscriptMessageResponse {
  @ApiProperty({ enum: ['assistant', 'user', 'system'] }) role: 'assistant' | 'user' | 'system';
  @ApiProperty() content: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Epoch milliseconds' }) timestamp: number | null;
}

/** The spec's Call object (also the `data` of call.* events). The resolved system prompt is never exposed. */
export class CallResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: PUBLIC_CALL_STATUSES }) status: PublicStatus;
  @ApiProperty({ enum: ['outbound', 'inbound'] }) direction: 'outbound' | 'inbound';
  @ApiProperty({ example: '+14155550100' }) callFrom: string;
  @ApiProperty({ example: '+14155550187' }) callTo: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) caseId: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1,
    description:
      'Extension (docs/testing-your-assistant.md): the version of the case whose content the call used; null ' +
      'without a case',
  })
  caseVersion: number | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) contactId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assistantConfigId: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Extension (docs/contracts/dialer.md): the campaign that placed this call; null outside campaigns',
  })
  campaignId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The resolved opening message' }) firstMessage:
    string | null;
  @ApiProperty({ type: String, nullable: true }) apiCallId: string | null;
  @ApiProperty({ type: String, enum: API_CALL_STATUSES, nullable: true }) apiCallStatus: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'customer-ended-call' }) endedReason: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Answered' }) resultStatus: string | null;
  @ApiProperty({ type: String, nullable: true }) recordingUrl: string | null;
  @ApiProperty({ type: Number, nullable: true }) durationSeconds: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.42,
    description:
      'Extension: what the voice platform charged for the call, in USD, as it reported it at the end of the ' +
      'call; null while the call is live, on the simulator, and when the platform did not say',
  })
  providerCost: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'The resolved variables injected into the call',
  })
  variableValues: Record<string, string> | null;
  @ApiProperty({
    type: String,
    // A copy: the OpenAPI generator adds `null` to a nullable enum array in place.
    enum: [...ANSWERED_BY],
    nullable: true,
    description:
      'Extension: who picked up an outbound call (`unknown` when answering-machine detection was off); null when ' +
      'nobody did, while the call is live, and on inbound calls (docs/tools.md)',
  })
  answeredBy: AnsweredBy | null;
  @ApiProperty({
    type: CallAnalysisResponse,
    nullable: true,
    description:
      'Extension: the post-call analysis of an ended call whose case asks for one; null otherwise (docs/tools.md)',
  })
  analysis: CallAnalysisResponse | null;
  @ApiProperty({
    type: [ToolCallResponse],
    maxItems: MAX_TOOL_CALLS_PER_CALL,
    description: `Extension: the function tools called during the call, oldest first, at most ${MAX_TOOL_CALLS_PER_CALL} (docs/tools.md)`,
  })
  toolCalls: ToolCallResponse[];
  @ApiProperty({
    type: CallTransferResponse,
    nullable: true,
    description: 'Extension: the transfer to another number, null when there was none (docs/tools.md)',
  })
  transfer: CallTransferResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiLivemode() livemode: boolean;
  @ApiProperty({
    enum: VOICE_PLATFORMS,
    example: 'vapi',
    description:
      'Extension: the voice platform serving the call, fixed when the call is made: `simulator` for every ' +
      "test-mode call, otherwise the platform of its `from` number. Changing a number's platform or the " +
      "service's default afterwards never moves a call already made (docs/providers.md)",
  })
  platform: VoicePlatform;
  @ApiProperty({
    type: [PlatformAttemptResponse],
    description:
      'Extension: placements that failed before the one that served the call (its platform unreachable, timing ' +
      "out or answering 5xx, or skipped while it cooled down); the call then went to its number's fallback " +
      'platform, which `platform` names, or, from a number without a fallback, waited (status `new`) and was ' +
      'tried again (docs/providers.md, "Failover"). Empty for most calls',
  })
  platformAttempts: PlatformAttemptResponse[];

  static from(call: Pick<Call, (typeof CALL_RESPONSE_COLUMNS)[number]>): CallResponse {
    return {
      id: call.id,
      status: publicStatus(call),
      direction: call.direction,
      callFrom: call.callFrom,
      callTo: call.callTo,
      caseId: call.caseId,
      caseVersion: call.caseVersion,
      contactId: call.contactId,
      assistantConfigId: call.assistantConfigId,
      campaignId: call.campaignId,
      firstMessage: call.firstMessage,
      apiCallId: call.apiCallId,
      apiCallStatus: call.apiCallStatus,
      endedReason: call.endedReason,
      resultStatus: call.resultStatus,
      recordingUrl: call.recordingUrl,
      durationSeconds: call.durationSeconds,
      providerCost: call.providerCost,
      variableValues: call.variableValues,
      answeredBy: call.answeredBy ?? null,
      analysis: call.analysis ?? null,
      toolCalls: call.toolCalls ?? [],
      transfer: call.transfer ?? null,
      createdAt: call.createdAt.toISOString(),
      updatedAt: call.updatedAt.toISOString(),
      livemode: call.livemode,
      platform: call.platform,
      platformAttempts: call.platformAttempts ?? [],
    };
  }
}

/** GET /calls/{id}: the Call plus its transcript. */
export class CallDetailResponse extends CallResponse {
  @ApiProperty({ type: [TranscriptMessageResponse] }) transcript: TranscriptMessageResponse[];

  static fromWithTranscript(call: Call): CallDetailResponse {
    return { ...CallResponse.from(call), transcript: call.transcript ?? [] };
  }
}
