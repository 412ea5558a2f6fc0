import { MessagingAccount } from '../messaging-account.entity';
import { MessagingTemplate } from '../messaging-template.entity';

/** How a provider may refuse a message; each maps one-to-one onto the public error code. */
export type ProviderRejectionCode = 'SESSION_EXPIRED' | 'TEMPLATE_NOT_FOUND' | 'MESSAGING_API_ERROR';

export type SendResult =
  { ok: true; providerMessageId: string } | { ok: false; code: ProviderRejectionCode; message: string };

export interface SendTextInput {
  account: MessagingAccount;
  /** E.164. */
  to: string;
  text: string;
}

export interface SendTemplateInput {
  account: MessagingAccount;
  to: string;
  template: MessagingTemplate;
  /** Placeholder name (or position `'1'`, `'2'`) to value, as the caller supplied them. */
  variables: Record<string, string>;
}

/** A message the provider accepted and we stored; the provider may go on to report its delivery. */
export interface StoredMessageRef {
  accountId: string;
  providerMessageId: string;
}

/**
 * The one seam between the messaging rules and whoever carries the messages (the simulator or the WhatsApp
 * Cloud API). Providers never throw for a refusal: they return it, typed, so the command maps it to the API.
 */
export abstract class MessagingProvider {
  abstract sendText(input: SendTextInput): Promise<SendResult>;
  abstract sendTemplate(input: SendTemplateInput): Promise<SendResult>;

  /**
   * Called once the accepted message is stored. Real providers report statuses through their webhook, so the
   * default does nothing; the simulator plays those reports here (after the row exists, so none is lost).
   */
  async afterStored(_message: StoredMessageRef): Promise<void> {}
}

export const rejected = (code: ProviderRejectionCode, message: string): SendResult => ({ ok: false, code, message });
