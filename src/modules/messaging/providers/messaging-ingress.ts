import type { DeliveryStatus } from '../message.entity';
import type { MessagingAccount } from '../messaging-account.entity';
import type { TemplateStatus } from '../messaging-template.entity';
import type { InboundMessage } from '../record-inbound-message.command';
import type { ProviderError } from './messaging-provider';

/**
 * What a messaging platform's ingress reports, translated from its wire format:
 * - `inbound`: a user's message of any kind, a system message (the user changed number or id) included;
 * - `delivery-status`: the provider's report on one of our outbound messages, with its error when it failed, and
 *   our own message id when the report echoes the one the send carried (WhatsApp's `biz_opaque_callback_data`):
 *   it names the message even when the send's own answer never came;
 * - `template-status`: a review outcome of a template, addressed by business account id, name and language
 *   (`processWide`: that business account is the deployment's own, WHATSAPP_WABA_ID).
 */
export type MessagingIngressEvent =
  | { kind: 'inbound'; message: InboundMessage }
  | {
      kind: 'delivery-status';
      accountId: string;
      providerMessageId: string;
      status: DeliveryStatus;
      error?: ProviderError;
      ourMessageId?: string | null;
    }
  | {
      kind: 'template-status';
      wabaId: string;
      processWide: boolean;
      name: string;
      language: string;
      status: TemplateStatus;
    };

/**
 * The port through which a messaging platform's ingress (WhatsApp's webhook, the simulator's status reports)
 * reaches the messaging domain: the ingress only verifies and translates its wire format into
 * MessagingIngressEvents, and the domain implements this port (MessagingIngressApplier), so no platform code
 * imports a messaging service. Every event may arrive twice, late or out of order; applying it is idempotent.
 */
export abstract class MessagingIngress {
  /** The account a platform's report is addressed to by its phone-number id; null when it is none of ours. */
  abstract findAccount(phoneNumberId: string): Promise<MessagingAccount | null>;

  /** Applies one event (the one applier of every messaging platform's reports). */
  abstract apply(event: MessagingIngressEvent): Promise<void>;
}
