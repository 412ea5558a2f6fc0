/**
 * What each domain event records: ids and the facts its listeners act on, never a public document. The webhook
 * body of an event is rendered from the current rows when its delivery is sent (`EventBodies`), so a listener
 * reads these typed facts and nothing parses a public body back. The event's world (organization and mode) is
 * the outbox row's own columns, handed to listeners beside the payload.
 *
 * One entry per event type: `DomainEventType` is this map's keys, so a type recorded, listened to or rendered
 * without an entry here does not compile.
 */
export interface EventPayloads {
  'call.started': CallEventPayload;
  'call.ended': FinishedCallPayload;
  'call.failed': FinishedCallPayload;
  'call.scheduled': CallEventPayload;
  'call.cancelled': CallEventPayload;
  'contact.created': ContactEventPayload;
  'contact.updated': ContactEventPayload;
  /** The row is gone when the delivery is sent: the contact as it was is the fact this event records. */
  'contact.deleted': DeletedContactPayload;
  // Extensions (docs/contracts/dialer.md): the dialer; the body is the Campaign.
  'campaign.started': CampaignEventPayload;
  'campaign.paused': CampaignPausedPayload;
  'campaign.completed': CampaignEventPayload;
  // Extensions: messaging; the body is the Message with its conversationId and livemode.
  'message.received': MessageEventPayload;
  'message.sent': MessageEventPayload;
  'message.delivered': MessageEventPayload;
  'message.read': MessageEventPayload;
  'message.failed': MessageEventPayload;
  // Extension: the chat agent handed a conversation to a person; the body is the Conversation.
  'conversation.handed_off': ConversationEventPayload;
  // Extension: a number's health moved (docs/number-health.md); the body is the number with its health.
  'phone_number.health_changed': NumberHealthChangedPayload;
  // Extension: a scenario run ended (docs/testing-your-assistant.md); the body is the run.
  'scenario_run.completed': ScenarioRunEventPayload;
}

export interface ScenarioRunEventPayload {
  runId: string;
}

export interface CallEventPayload {
  callId: string;
}

/** A call's end: what the campaign engine and the follow-ups decide on, without reading the call again. */
export interface FinishedCallPayload extends CallEventPayload {
  direction: 'inbound' | 'outbound';
  callTo: string;
  contactId: string | null;
  caseId: string | null;
  campaignId: string | null;
  endedReason: string | null;
  /** ISO 8601: when the call ended (a follow-up's delay counts from it). */
  endedAt: string;
}

export interface ContactEventPayload {
  contactId: string;
}

export interface DeletedContactPayload extends ContactEventPayload {
  /** The public Contact as it was when it was deleted (docs/contracts/conventions.md: `contact.deleted`). */
  contact: Readonly<Record<string, unknown>>;
}

export interface CampaignEventPayload {
  campaignId: string;
}

export interface CampaignPausedPayload extends CampaignEventPayload {
  /** Why the engine paused it (minutes or plan), null when a person did; the campaign's row moves on. */
  pausedReason: string | null;
}

export interface MessageEventPayload {
  messageId: string;
  conversationId: string;
  /** Who wrote it: the chat agent answers `user` messages only. */
  senderType: string;
}

export interface ConversationEventPayload {
  conversationId: string;
}

export interface NumberHealthChangedPayload {
  phoneNumberId: string;
  /** The status the number moved to, and the one it left: facts of the move, whatever the number does next. */
  status: 'healthy' | 'watch' | 'degraded';
  previousStatus: 'healthy' | 'watch' | 'degraded';
}
