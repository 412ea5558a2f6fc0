import { Injectable, Logger } from '@nestjs/common';
import type { CreateMessageTemplate, TemplateLanguage } from '@great-detail/whatsapp' with {
  'resolution-mode': 'import',
};
import { isPositional, templatePlaceholders } from '../../../messaging/template-placeholders';
import {
  MediaStream,
  MessagingProvider,
  ProviderTemplate,
  Recipient,
  ResumableSend,
  SendMediaInput,
  SendLater,
  SendResult,
  SendTemplateInput,
  SendTextInput,
  rejected,
} from '../../../messaging/providers/messaging-provider';
import { outcomeOf } from './whatsapp-error-codes';
import { WhatsAppGraphClient } from './whatsapp-graph-client';
import { WhatsAppMedia } from './whatsapp-media';
import { WhatsAppSendPacing } from './whatsapp-send-pacing';
import { WhatsAppTemplateReader } from './whatsapp-template-reader';
import { MessagingAccount } from '../../../messaging/messaging-account.entity';
import type {
  GraphError,
  GraphMediaType,
  GraphRecipient,
  GraphSendAnswer,
  GraphSendBody,
} from './whatsapp-graph.types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The longest single backoff between two attempts of one send. */
const MAX_BACKOFF_MS = 60_000;

/** A send kept for the queue: the phone-number id it goes from and the exact body (our message id included). */
interface WhatsAppResumable extends ResumableSend {
  phoneNumberId: string;
  body: GraphSendBody;
}

type TemplateComponents = CreateMessageTemplate['components'];

/** The WhatsApp Cloud API (`MESSAGING_PROVIDER=whatsapp`): `POST {graph}/{phone-number-id}/messages`. */
@Injectable()
export class WhatsAppCloudProvider extends MessagingProvider {
  private readonly logger = new Logger(WhatsAppCloudProvider.name);

  constructor(
    private readonly graph: WhatsAppGraphClient,
    private readonly pacing: WhatsAppSendPacing,
    private readonly media: WhatsAppMedia,
    private readonly templates: WhatsAppTemplateReader,
  ) {
    super();
  }

  openMedia(account: MessagingAccount, mediaId: string): Promise<MediaStream> {
    return this.media.open(account, mediaId);
  }

  override readTemplates(account: MessagingAccount): Promise<ProviderTemplate[]> {
    return this.templates.read(account);
  }

  sendText(input: SendTextInput): Promise<SendResult> {
    return this.post(input, { type: 'text', text: { preview_url: false, body: input.text } });
  }

  sendMedia(input: SendMediaInput): Promise<SendResult> {
    const { link, id, caption, filename } = input.media;
    const media = {
      ...(id ? { id } : { link }),
      ...(caption && !['audio', 'sticker'].includes(input.mediaType) ? { caption } : {}),
      ...(filename && input.mediaType === 'document' ? { filename } : {}),
    };
    return this.post(input, { type: input.mediaType as GraphMediaType, [input.mediaType]: media } as SendPart);
  }

  sendTemplate(input: SendTemplateInput): Promise<SendResult> {
    return this.post(input, {
      type: 'template',
      // The language code is the template's own; the Cloud API checks it against the approved translations.
      template: {
        name: input.template.name,
        language: { code: input.template.language as TemplateLanguage },
        components: templateComponents(input),
      },
    });
  }

  override get unansweredWaitMs(): number {
    return this.graph.settings.reconcileWaitMs;
  }

  override resume(account: MessagingAccount, send: ResumableSend, attempt: number): Promise<SendResult> {
    const { phoneNumberId, body } = send as WhatsAppResumable;
    return this.attempt(account, phoneNumberId, body, attempt);
  }

  /**
   * Builds the Cloud API body (carrying our message id as `biz_opaque_callback_data`), has it kept with the stored
   * message, and makes the first attempt.
   */
  private async post(input: SendTextInput | SendMediaInput | SendTemplateInput, part: SendPart): Promise<SendResult> {
    const { account } = input;
    const { phoneNumberId } = this.graph.credentialsOf(account);
    if (!phoneNumberId) {
      return rejected('MESSAGING_API_ERROR', `Messaging account ${account.id} has no WhatsApp phone-number id`);
    }
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...recipientOf(input.to),
      ...part,
      // Meta echoes it in every status webhook of the message: how a send left unanswered is matched to its row.
      biz_opaque_callback_data: input.messageId,
    } as GraphSendBody;
    await input.keep?.({ phoneNumberId, body } satisfies WhatsAppResumable);
    return this.attempt(account, phoneNumberId, body, 0);
  }

  /**
   * One attempt of a send, paced first (per number and recipient, WhatsAppSendPacing: a short wait is waited here,
   * a longer one goes to the queue). Meta's answer is mapped once (./whatsapp-error-codes.ts): a rate limit or
   * Meta's own trouble is tried again from the queue after a backoff, until WHATSAPP_MAX_RETRIES; a request left
   * unanswered waits there for Meta's status webhook; everything else is final.
   */
  private async attempt(
    account: MessagingAccount,
    phoneNumberId: string,
    body: GraphSendBody,
    attempt: number,
  ): Promise<SendResult> {
    const settings = this.graph.settings;
    const resume: WhatsAppResumable = { phoneNumberId, body };
    const later = (delayMs: number, reason: string, extra: Partial<SendLater> = {}): SendLater => ({
      ok: 'later',
      delayMs,
      resume,
      awaitingStatus: false,
      reason,
      ...extra,
    });
    const recipient = 'to' in body ? body.to : body.recipient;
    for (;;) {
      const wait = await this.pacing.take(phoneNumberId, recipient);
      if (wait === 0) break;
      if (wait > settings.inlineWaitMs) return later(wait, 'paced');
      await sleep(wait);
    }
    const { token } = this.graph.credentialsOf(account);
    const answer = await this.graph.json<GraphSendAnswer>(
      token,
      'POST',
      `/${encodeURIComponent(phoneNumberId)}/messages`,
      body,
    );
    const id = answer.ok ? answer.body.messages?.[0]?.id : undefined;
    if (answer.ok && id) return { ok: true, providerMessageId: id };
    if (!answer.ok && answer.unanswered) {
      this.logger.warn({ accountId: account.id, attempt }, 'WhatsApp send unanswered; waiting for its status webhook');
      return later(settings.reconcileWaitMs, 'unanswered', { awaitingStatus: true });
    }
    const error: Partial<GraphError> = answer.ok
      ? { code: 0, message: 'The provider accepted the message without an id' }
      : answer.error;
    const providerError = {
      code: error.code ?? 0,
      title: error.error_data?.details ?? error.message ?? error.title ?? '',
    };
    const outcome = outcomeOf(providerError.code);
    const meta = providerError.code ? ` (Meta error ${providerError.code})` : '';
    if (outcome?.outcome === 'rate' || outcome?.outcome === 'transient') {
      if (attempt < settings.maxRetries) {
        const backoff = Math.min(settings.retryBaseMs * 2 ** attempt, MAX_BACKOFF_MS);
        // Meta's pair rate window is about 6 s: no sooner retry to the same user can clear it.
        const delay = providerError.code === 131056 ? Math.max(backoff, settings.recipientIntervalMs) : backoff;
        this.logger.warn(
          { accountId: account.id, code: providerError.code, attempt: attempt + 1, delay },
          'WhatsApp send refused for now; the send queue tries again',
        );
        return later(delay, outcome.outcome, { providerError });
      }
      return rejected(
        'MESSAGING_API_ERROR',
        `Provider: ${providerError.title || 'refused the message'}${meta}, after ${attempt + 1} attempts`,
        providerError,
      );
    }
    if (outcome?.outcome === 'reject') {
      const title = outcome.title ? `${outcome.title} (${providerError.title})` : providerError.title;
      const whose = outcome.code === 'MESSAGING_API_ERROR' ? `Messaging account ${account.id}: ` : 'Provider: ';
      return rejected(outcome.code, `${whose}${title}${meta}`, { ...providerError, title });
    }
    if (outcome?.outcome === 'token') {
      return rejected(
        'MESSAGING_API_ERROR',
        `The WhatsApp access token of messaging account ${account.id} (${account.displayPhoneNumber}) was refused${meta}: ` +
          `${providerError.title}. Renew it (docs/providers.md)`,
        providerError,
      );
    }
    return rejected(
      'MESSAGING_API_ERROR',
      `Provider: ${providerError.title || 'refused the message'}${meta}`,
      providerError.code ? providerError : undefined,
    );
  }
}

type SendPart = GraphSendBody extends infer B
  ? B extends unknown
    ? Omit<B, 'messaging_product' | 'recipient_type' | 'to' | 'recipient' | 'biz_opaque_callback_data'>
    : never
  : never;

/** The Cloud API takes the number with its country code and without `+`; a user known only by id gets `recipient`. */
function recipientOf(to: Recipient): GraphRecipient {
  return to.phone ? { to: to.phone.replace(/^\+/, '') } : { recipient: to.userId ?? '' };
}

/**
 * Body parameters one per placeholder in the body's order (named ones carry their name: WhatsApp templates are
 * all positional or all named); a missing variable is left out, so the provider reports the mismatch as it does
 * for any client. Then the header's parameter and the buttons', as given.
 */
function templateComponents(input: SendTemplateInput): TemplateComponents {
  const names = templatePlaceholders(input.template.body).filter((name) => name in input.variables);
  const text = (name: string) => ({ type: 'text' as const, text: input.variables[name] });
  const components: Array<TemplateComponents[number]> = [];
  const { header, buttons = [] } = input;
  if (header) {
    components.push({
      type: 'header',
      parameters: [
        header.type === 'text'
          ? { type: 'text', text: header.text }
          : // The SDK types a media parameter's `type` with its MessageType enum, which exists only in its ES-module
            // build (not loadable here); the wire value is the same string.
            ({ type: header.type, [header.type]: header.id ? { id: header.id } : { link: header.link } } as never),
      ],
    });
  }
  if (names.length) {
    components.push(
      names.every(isPositional)
        ? { type: 'body', parameters: names.map(text) }
        : { type: 'body', parameters: names.map((name) => ({ ...text(name), parameter_name: name })) },
    );
  }
  for (const button of buttons) {
    const index = String(button.index) as '0';
    components.push(
      button.subType === 'quick_reply'
        ? { type: 'button', index, sub_type: 'quick_reply', parameters: [{ type: 'payload', payload: button.value }] }
        : { type: 'button', index, sub_type: 'url', parameters: [{ type: 'text', text: button.value }] },
    );
  }
  return components as TemplateComponents;
}
