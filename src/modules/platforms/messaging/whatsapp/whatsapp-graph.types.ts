import type {
  CreateMessageMedia,
  CreateMessagePayload,
  CreateMessageTemplate,
  CreateMessageText,
  ListTemplatesPayload,
  MediaGetURLPayload,
  WebhookEventNotification,
  WebhookEventNotificationMessageTemplateStatusUpdateChanges,
  WhatsappError,
} from '@great-detail/whatsapp' with { 'resolution-mode': 'import' };

/*
 * The Cloud API's shapes come from @great-detail/whatsapp (a maintained TypeScript SDK of the WhatsApp Business
 * Platform; only its types are used). Why it and how it is checked: docs/providers.md.
 */

/** Meta's error object (`{"error": {...}}` of any Graph answer, `errors[]` of a failed status). */
export type GraphError = WhatsappError;

/** Who a send goes to: the user's number (digits, no `+`), or their business-scoped user id when that is all we know. */
export type GraphRecipient = { to: string } | { recipient: string };

/** `biz_opaque_callback_data`: our message id, which Meta echoes in the message's status webhooks (<= 512 chars). */
type SendEnvelope = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  biz_opaque_callback_data?: string;
} & GraphRecipient;
export type GraphMediaType = 'image' | 'audio' | 'video' | 'document' | 'sticker';

/** `POST /{phone-number-id}/messages`: the Cloud API's envelope around the SDK's text, template and media objects. */
export type GraphSendBody = SendEnvelope &
  (
    | { type: 'text'; text: CreateMessageText }
    | { type: 'template'; template: CreateMessageTemplate }
    | { type: 'image'; image: CreateMessageMedia }
    | { type: 'audio'; audio: Omit<CreateMessageMedia, 'caption'> }
    | { type: 'video'; video: CreateMessageMedia }
    | { type: 'document'; document: CreateMessageMedia }
    | { type: 'sticker'; sticker: Omit<CreateMessageMedia, 'caption'> }
  );

/** The answer to a send: `messages[0].id` on success, `error` on a refusal (never both). */
export type GraphSendAnswer = Partial<CreateMessagePayload>;
/** `GET /{media-id}`: where the file is, for five minutes. */
export type GraphMediaAnswer = MediaGetURLPayload;
/** `GET /{waba-id}/message_templates`, one page (`paging.next` links the following one). */
export type GraphTemplatesPage = ListTemplatesPayload & { paging?: { next?: string } };

/** The webhook payload (`object: whatsapp_business_account`), read defensively: every field may be missing. */
export interface WhatsAppWebhookPayload {
  object?: string;
  entry?: Array<{ id?: string; changes?: Array<{ field?: string; value?: unknown }> }>;
}

export interface WhatsAppChangeValue {
  metadata?: { display_phone_number?: string; phone_number_id?: string };
  contacts?: Array<{ wa_id?: string; user_id?: string; profile?: { name?: string } }>;
  messages?: WhatsAppInboundMessage[];
  statuses?: WhatsAppStatus[];
}

interface InboundMedia {
  id?: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  animated?: boolean;
}

export interface WhatsAppInboundMessage {
  from?: string;
  from_user_id?: string;
  id?: string;
  /** The message this one replies to, or that it was forwarded. */
  context?: { from?: string; id?: string; forwarded?: boolean; frequently_forwarded?: boolean };
  /** The ad or post a click-to-WhatsApp user came from. */
  referral?: {
    source_url?: string;
    source_id?: string;
    source_type?: string;
    headline?: string;
    body?: string;
    media_type?: string;
    ctwa_clid?: string;
  };
  /** Unix seconds, as a string. */
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  button?: { text?: string; payload?: string };
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    nfm_reply?: { name?: string; body?: string };
  };
  image?: InboundMedia;
  audio?: InboundMedia;
  video?: InboundMedia;
  document?: InboundMedia;
  sticker?: InboundMedia;
  location?: unknown;
  contacts?: unknown;
  reaction?: { message_id?: string; emoji?: string };
  /**
   * A change about the user: `wa_id` (today's name; `new_wa_id` in Meta's older documents) is their new number,
   * `user_id` their new business-scoped id.
   */
  system?: { body?: string; type?: string; wa_id?: string; new_wa_id?: string; user_id?: string };
  errors?: Array<Partial<GraphError>>;
}

export interface WhatsAppStatus {
  id?: string;
  status?: string;
  recipient_id?: string;
  recipient_user_id?: string;
  /** What the send carried as `biz_opaque_callback_data` (our message id). */
  biz_opaque_callback_data?: string;
  errors?: Array<Partial<GraphError>>;
}

/** `message_template_status_update`: a template's review outcome, addressed by the WhatsApp Business Account id. */
export type WhatsAppTemplateStatusValue = Partial<WebhookEventNotificationMessageTemplateStatusUpdateChanges['value']>;

/**
 * Compile-time proof that our readers fit the SDK's description of the webhooks: every field we read exists there
 * with the type we read it as (an extra or misspelt field, or a wrong type, fails tsc).
 */
type Change = WebhookEventNotification['entry'][number]['changes'][number];
type MessagesChange = Extract<Change, { field: 'messages' }>;
const readerFitsTheSdk = (value: MessagesChange['value']): WhatsAppChangeValue => value;
const templateReaderFits = (
  value: Extract<Change, { field: 'message_template_status_update' }>['value'],
): WhatsAppTemplateStatusValue => value;
void readerFitsTheSdk;
void templateReaderFits;
