import type {
  CreateMessagePayload,
  CreateMessageTemplate,
  CreateMessageText,
  WebhookEventNotification,
} from '@great-detail/whatsapp' with { 'resolution-mode': 'import' };

/*
 * The Cloud API's shapes come from @great-detail/whatsapp (a maintained TypeScript SDK of the WhatsApp Business
 * Platform; only its types are used). Why it and how it is checked: docs/providers.md.
 */

/** `POST /{phone-number-id}/messages`: the Cloud API's envelope around the SDK's text and template objects. */
export type GraphSendBody = { messaging_product: 'whatsapp'; recipient_type: 'individual'; to: string } & (
  { type: 'text'; text: CreateMessageText } | { type: 'template'; template: CreateMessageTemplate }
);

/** The answer to a send: `messages[0].id` on success, `error` on a refusal (never both). */
export type GraphSendAnswer = Partial<CreateMessagePayload>;

/** The webhook payload (`object: whatsapp_business_account`), read defensively: every field may be missing. */
export interface WhatsAppWebhookPayload {
  object?: string;
  entry?: Array<{ id?: string; changes?: Array<{ field?: string; value?: WhatsAppChangeValue }> }>;
}

export interface WhatsAppChangeValue {
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
  messages?: WhatsAppInboundMessage[];
  statuses?: WhatsAppStatus[];
}

export interface WhatsAppInboundMessage {
  from?: string;
  id?: string;
  /** Unix seconds, as a string. */
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  button?: { text?: string };
  interactive?: { type?: string; button_reply?: { title?: string }; list_reply?: { title?: string } };
  image?: { caption?: string };
  video?: { caption?: string };
  document?: { caption?: string };
}

export interface WhatsAppStatus {
  id?: string;
  status?: string;
  recipient_id?: string;
  errors?: Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }>;
}

/**
 * Compile-time proof that our reader fits the SDK's description of a `messages` webhook: every field we read
 * exists there with the type we read it as (an extra or misspelt field, or a wrong type, fails tsc).
 */
type MessagesChange = Extract<WebhookEventNotification['entry'][number]['changes'][number], { field: 'messages' }>;
const readerFitsTheSdk = (value: MessagesChange['value']): WhatsAppChangeValue => value;
void readerFitsTheSdk;
