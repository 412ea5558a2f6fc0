import type { FinishedCallPayload } from '../outbox/event-payloads';
import type { Call } from './call.entity';

/** The facts a call's end records for its listeners (the campaign engine, follow-ups). */
export function finishedCallPayload(call: Call): FinishedCallPayload {
  return {
    callId: call.id,
    direction: call.direction,
    callTo: call.callTo,
    contactId: call.contactId,
    caseId: call.caseId,
    campaignId: call.campaignId,
    endedReason: call.endedReason,
    endedAt: (call.endedAt ?? call.updatedAt).toISOString(),
  };
}
