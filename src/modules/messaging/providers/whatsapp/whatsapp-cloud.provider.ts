import { Injectable, Logger } from '@nestjs/common';
import type { CreateMessageTemplate, TemplateLanguage } from '@great-detail/whatsapp' with {
  'resolution-mode': 'import',
};
import { isPositional, templatePlaceholders } from '../../template-placeholders';
import {
  MessagingProvider,
  Recipient,
  SendMediaInput,
  SendResult,
  SendTemplateInput,
  SendTextInput,
  rejected,
} from '../messaging-provider';
import { outcomeOf } from './whatsapp-error-codes';
import { WhatsAppGraphClient } from './whatsapp-graph-client';
import type {
  GraphError,
  GraphMediaType,
  GraphRecipient,
  GraphSendAnswer,
  GraphSendBody,
} from './whatsapp-graph.types';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The longest single backoff between two attempts of one send (the request is waiting on it). */
const MAX_BACKOFF_MS = 8_000;

type TemplateComponents = CreateMessageTemplate['components'];

/** The WhatsApp Cloud API (`MESSAGING_PROVIDER=whatsapp`): `POST {graph}/{phone-number-id}/messages`. */
@Injectable()
export class WhatsAppCloudProvider extends MessagingProvider {
  private readonly logger = new Logger(WhatsAppCloudProvider.name);

  constructor(private readonly graph: WhatsAppGraphClient) {
    super();
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

  /**
   * One send, retried after a backoff while Meta answers with a rate limit (130429 throughput, 131056 pair rate);
   * every other refusal is mapped once (./whatsapp-error-codes.ts).
   */
  private async post(input: SendTextInput | SendMediaInput | SendTemplateInput, part: SendPart): Promise<SendResult> {
    const { account } = input;
    const { token, phoneNumberId } = this.graph.credentialsOf(account);
    if (!phoneNumberId) {
      return rejected('MESSAGING_API_ERROR', `Messaging account ${account.id} has no WhatsApp phone-number id`);
    }
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...recipientOf(input.to),
      ...part,
    } as GraphSendBody;
    const { maxRetries, retryBaseMs } = this.graph.settings;
    for (let attempt = 0; ; attempt += 1) {
      const answer = await this.graph.json<GraphSendAnswer>(
        token,
        'POST',
        `/${encodeURIComponent(phoneNumberId)}/messages`,
        body,
      );
      const id = answer.ok ? answer.body.messages?.[0]?.id : undefined;
      if (answer.ok && id) return { ok: true, providerMessageId: id };
      const error: Partial<GraphError> = answer.ok
        ? { code: 0, message: 'The provider accepted the message without an id' }
        : answer.error;
      const providerError = {
        code: error.code ?? 0,
        title: error.error_data?.details ?? error.message ?? error.title ?? '',
      };
      const outcome = outcomeOf(providerError.code);
      if (outcome?.outcome === 'retry' && attempt < maxRetries) {
        const backoff = Math.min(retryBaseMs * 2 ** attempt, MAX_BACKOFF_MS);
        this.logger.warn(
          { accountId: account.id, code: providerError.code, attempt: attempt + 1, backoff },
          'WhatsApp rate limit; retrying the send',
        );
        await sleep(backoff);
        continue;
      }
      const meta = providerError.code ? ` (Meta error ${providerError.code})` : '';
      if (outcome?.outcome === 'reject')
        return rejected(outcome.code, `Provider: ${providerError.title}${meta}`, providerError);
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
}

type SendPart = GraphSendBody extends infer B
  ? B extends unknown
    ? Omit<B, 'messaging_product' | 'recipient_type' | 'to' | 'recipient'>
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
