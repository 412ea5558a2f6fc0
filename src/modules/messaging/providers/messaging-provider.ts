import type { Readable } from 'node:stream';
import { MediaKind } from '../message-payload';
import { MessagingAccount } from '../messaging-account.entity';
import { MessagingTemplate, TemplateComponentSummary, TemplateStatus } from '../messaging-template.entity';

/** How a provider may refuse a message; each maps one-to-one onto the public error code. */
export type ProviderRejectionCode =
  'SESSION_EXPIRED' | 'TEMPLATE_NOT_FOUND' | 'TEMPLATE_INVALID' | 'MESSAGE_UNDELIVERABLE' | 'MESSAGING_API_ERROR';

/** The provider's own error, as it reported it (a synchronous refusal or a later `failed` status). */
export interface ProviderError {
  /** The provider's numeric code (WhatsApp: Meta's, e.g. 131047); 0 when the provider gave none. */
  code: number;
  title: string;
}

/**
 * What the provider needs to try a send again later, from the send queue: its own request (JSON), kept with the
 * job so the retry sends exactly what the first attempt did.
 */
export type ResumableSend = Record<string, unknown>;

/**
 * `later`: not sent now, to be tried again from the send queue after `delayMs`: pacing or a rate limit said wait,
 * the provider had trouble of its own (`providerError`), or the attempt got no answer and may have reached the
 * provider (`awaitingStatus`: wait for a status report naming the message before sending it again).
 */
export interface SendLater {
  ok: 'later';
  delayMs: number;
  resume: ResumableSend;
  awaitingStatus: boolean;
  reason: string;
  providerError?: ProviderError;
}

export type SendResult =
  | { ok: true; providerMessageId: string }
  | { ok: false; code: ProviderRejectionCode; message: string; providerError?: ProviderError }
  | SendLater;

/** Who a message goes to: the user's phone (E.164, empty when unknown) and the provider's user id when known. */
export interface Recipient {
  phone: string;
  userId: string | null;
}

interface SendInput {
  account: MessagingAccount;
  to: Recipient;
  /** Our id of the message, stored before the send: the provider carries it so its reports name the message. */
  messageId: string;
  /**
   * Keeps the provider's request (as `resume` takes it) with the stored message before the first attempt, so a
   * send whose process or job is lost can be rebuilt from the row. Providers that never defer need not call it.
   */
  keep?: (send: ResumableSend) => Promise<void>;
}

export interface SendTextInput extends SendInput {
  text: string;
}

/** A media file by public https link or by the provider's media id; caption for image, video and document. */
export interface OutboundMedia {
  link?: string;
  id?: string;
  caption?: string;
  filename?: string;
}

export interface SendMediaInput extends SendInput {
  mediaType: MediaKind;
  media: OutboundMedia;
}

/** A template header's parameter: text for a text header with a placeholder, or the media of a media header. */
export type TemplateHeaderParameter =
  { type: 'text'; text: string } | { type: 'image' | 'video' | 'document'; link?: string; id?: string };

/** A template button's parameter: a quick reply's payload or a dynamic URL's suffix, by the button's index. */
export interface TemplateButtonParameter {
  index: number;
  subType: 'quick_reply' | 'url';
  /** quick_reply: the payload returned when tapped; url: the text appended to the button's URL. */
  value: string;
}

export interface SendTemplateInput extends SendInput {
  template: MessagingTemplate;
  /** Placeholder name (or position `'1'`, `'2'`) to value, as the caller supplied them. */
  variables: Record<string, string>;
  header?: TemplateHeaderParameter;
  buttons?: TemplateButtonParameter[];
}

/** A message the provider accepted and we stored; the provider may go on to report its delivery. */
export interface StoredMessageRef {
  accountId: string;
  providerMessageId: string;
}

/** A message's media file as the provider serves it, streamed through (never stored). */
export interface MediaStream {
  body: Readable;
  contentType: string;
  length: number | null;
}

/** A template as the provider lists it, in the shape we store. */
export interface ProviderTemplate {
  providerTemplateId: string;
  name: string;
  language: string;
  status: TemplateStatus;
  body: string;
  components: TemplateComponentSummary[];
}

/**
 * The one seam between the messaging rules and whoever carries the messages (the simulator or the WhatsApp
 * Cloud API). Providers never throw for a refusal: they return it, typed, so the command maps it to the API.
 */
export abstract class MessagingProvider {
  abstract sendText(input: SendTextInput): Promise<SendResult>;
  abstract sendTemplate(input: SendTemplateInput): Promise<SendResult>;
  abstract sendMedia(input: SendMediaInput): Promise<SendResult>;

  /**
   * The file of a message's media, by the provider's media id. Refusals are the API's errors (`ApiError`), as the
   * caller streams the file straight to the client.
   */
  abstract openMedia(account: MessagingAccount, mediaId: string): Promise<MediaStream>;

  /** Every template of the account as the provider has it. Only asked of a provider that keeps templates. */
  readTemplates(_account: MessagingAccount): Promise<ProviderTemplate[]> {
    throw new Error(`${this.constructor.name} keeps no templates`);
  }

  /**
   * Attempt number `attempt` (1 is the first retry) of a send that answered `later`. Only providers that answer
   * `later` are asked; the simulator never does.
   */
  resume(_account: MessagingAccount, _send: ResumableSend, _attempt: number): Promise<SendResult> {
    throw new Error(`${this.constructor.name} never defers a send`);
  }

  /**
   * How long a send that may have reached the provider unanswered waits for a status report naming it before it is
   * sent again (a rebuilt send waits this long too: its last attempt's fate is unknown). 0: never unanswered.
   */
  get unansweredWaitMs(): number {
    return 0;
  }

  /**
   * Called once the accepted message is stored. Real providers report statuses through their webhook, so the
   * default does nothing; the simulator plays those reports here (after the row exists, so none is lost).
   */
  async afterStored(_message: StoredMessageRef): Promise<void> {}
}

export const rejected = (code: ProviderRejectionCode, message: string, providerError?: ProviderError): SendResult => ({
  ok: false,
  code,
  message,
  ...(providerError ? { providerError } : {}),
});
