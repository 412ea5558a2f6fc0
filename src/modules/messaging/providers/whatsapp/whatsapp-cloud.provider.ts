import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CreateMessageTemplate, TemplateLanguage } from '@great-detail/whatsapp' with {
  'resolution-mode': 'import',
};
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import {
  MessagingProvider,
  ProviderRejectionCode,
  SendResult,
  SendTemplateInput,
  SendTextInput,
  rejected,
} from '../messaging-provider';
import { isPositional, templatePlaceholders } from '../../template-placeholders';
import { WhatsAppConfig, whatsAppConfig } from './whatsapp-config';
import type { GraphSendAnswer, GraphSendBody } from './whatsapp-graph.types';

const REQUEST_TIMEOUT_MS = 10_000;

/** Graph API error codes with a meaning of their own in our API; every other refusal is MESSAGING_API_ERROR. */
const ERROR_CODES: Record<number, ProviderRejectionCode> = {
  131047: 'SESSION_EXPIRED', // re-engagement message: more than 24 hours since the user's last message
  132001: 'TEMPLATE_NOT_FOUND', // template name does not exist in the translation
};

/** The WhatsApp Cloud API (`MESSAGING_PROVIDER=whatsapp`): `POST {graph}/{phone-number-id}/messages`. */
@Injectable()
export class WhatsAppCloudProvider extends MessagingProvider {
  private readonly logger = new Logger(WhatsAppCloudProvider.name);
  private readonly settings: WhatsAppConfig;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.settings = whatsAppConfig(config);
  }

  sendText(input: SendTextInput): Promise<SendResult> {
    return this.post(input.account.phoneNumberId, {
      ...envelope(input.to),
      type: 'text',
      text: { preview_url: false, body: input.text },
    });
  }

  sendTemplate(input: SendTemplateInput): Promise<SendResult> {
    // One parameter per placeholder, in the body's order; named ones carry their name (WhatsApp templates are all
    // positional or all named). A missing variable is left out, so the provider reports the mismatch as it does
    // for any client.
    const names = templatePlaceholders(input.template.body).filter((name) => name in input.variables);
    const text = (name: string) => ({ type: 'text' as const, text: input.variables[name] });
    const components: CreateMessageTemplate['components'] = !names.length
      ? []
      : names.every(isPositional)
        ? [{ type: 'body', parameters: names.map(text) }]
        : [{ type: 'body', parameters: names.map((name) => ({ ...text(name), parameter_name: name })) }];
    return this.post(input.account.phoneNumberId, {
      ...envelope(input.to),
      type: 'template',
      // The language code is the template's own; the Cloud API checks it against the approved translations.
      template: {
        name: input.template.name,
        language: { code: input.template.language as TemplateLanguage },
        components,
      },
    });
  }

  private async post(phoneNumberId: string | null, payload: GraphSendBody): Promise<SendResult> {
    if (!phoneNumberId) return rejected('MESSAGING_API_ERROR', 'The messaging account has no provider phone-number id');
    if (!this.settings.accessToken) return rejected('MESSAGING_API_ERROR', 'WHATSAPP_ACCESS_TOKEN is not configured');
    let response: Response;
    try {
      response = await fetch(`${this.settings.graphUrl}/${encodeURIComponent(phoneNumberId)}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.settings.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'WhatsApp Cloud API unreachable');
      return rejected('MESSAGING_API_ERROR', 'The messaging provider could not be reached');
    }
    const body = (await response.json().catch(() => ({}))) as GraphSendAnswer;
    const id = body.messages?.[0]?.id;
    if (response.ok && id) return { ok: true, providerMessageId: id };
    const code = body.error?.code;
    const detail = body.error?.error_data?.details ?? body.error?.message ?? `HTTP ${response.status}`;
    return rejected((code !== undefined && ERROR_CODES[code]) || 'MESSAGING_API_ERROR', `Provider: ${detail}`);
  }
}

/** Every send's envelope; the Cloud API takes the number with its country code and without `+`. */
const envelope = (e164: string) => ({
  messaging_product: 'whatsapp' as const,
  recipient_type: 'individual' as const,
  to: e164.replace(/^\+/, ''),
});
