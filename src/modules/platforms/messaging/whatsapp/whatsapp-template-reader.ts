import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../../common/errors/api-error';
import { MessagingAccount } from '../../../messaging/messaging-account.entity';
import type { ProviderTemplate } from '../../../messaging/providers/messaging-provider';
import { TEMPLATE_STATUSES, TemplateComponentSummary } from '../../../messaging/messaging-template.entity';
import { GraphResult, WhatsAppGraphClient } from './whatsapp-graph-client';
import type { GraphTemplatesPage } from './whatsapp-graph.types';

/** Bounds of one sync (docs/providers.md): Meta allows 250 templates per WhatsApp Business Account (6,000 when verified). */
const PAGE_SIZE = 100;
export const MAX_SYNCED_TEMPLATES = 6000;

/** Reads an account's templates from Meta: `GET /{waba-id}/message_templates`, every page. */
@Injectable()
export class WhatsAppTemplateReader {
  constructor(private readonly graph: WhatsAppGraphClient) {}

  async read(account: MessagingAccount): Promise<ProviderTemplate[]> {
    const { token, wabaId } = this.graph.credentialsOf(account);
    if (!wabaId) {
      throw new ApiError(
        'INVALID_STATE',
        `Messaging account ${account.id} has no WhatsApp Business Account id (wabaId) and WHATSAPP_WABA_ID is not set`,
      );
    }
    const fields = 'id,name,language,status,components';
    let next: string | undefined =
      `/${encodeURIComponent(wabaId)}/message_templates?fields=${fields}&limit=${PAGE_SIZE}`;
    const templates: ProviderTemplate[] = [];
    while (next) {
      const page: GraphResult<GraphTemplatesPage> = await this.graph.json<GraphTemplatesPage>(token, 'GET', next);
      if (!page.ok) {
        const code = page.error.code ? ` (Meta error ${page.error.code})` : '';
        throw new ApiError(
          'MESSAGING_API_ERROR',
          `Reading the templates of messaging account ${account.id} failed${code}: ${page.error.message ?? ''}`,
          page.error.code
            ? [{ field: 'provider', message: page.error.message ?? '', providerCode: page.error.code }]
            : undefined,
        );
      }
      for (const t of page.body.data ?? []) templates.push(toStored(t));
      if (templates.length > MAX_SYNCED_TEMPLATES) {
        throw new ApiError(
          'MESSAGING_API_ERROR',
          `Meta listed more than ${MAX_SYNCED_TEMPLATES} templates; nothing was changed`,
        );
      }
      next = page.body.data?.length ? page.body.paging?.next : undefined;
    }
    return templates;
  }
}

type ListedTemplate = GraphTemplatesPage['data'][number];

function toStored(t: ListedTemplate): ProviderTemplate {
  const components = (t.components ?? []) as Array<Record<string, unknown> & { type: string }>;
  const body = components.find((c) => c.type === 'BODY');
  return {
    providerTemplateId: String(t.id),
    name: t.name,
    language: t.language,
    status: (TEMPLATE_STATUSES as readonly string[]).includes(t.status) ? t.status : 'PENDING',
    body: typeof body?.text === 'string' ? body.text : '',
    components: components
      .filter((c): c is typeof c & { type: TemplateComponentSummary['type'] } =>
        ['HEADER', 'FOOTER', 'BUTTONS'].includes(c.type),
      )
      .map((c) => ({
        type: c.type,
        ...(typeof c.format === 'string' ? { format: c.format } : {}),
        ...(typeof c.text === 'string' ? { text: c.text } : {}),
        ...(Array.isArray(c.buttons)
          ? {
              buttons: (c.buttons as Array<Record<string, unknown>>).map((b) => ({
                type: String(b.type),
                ...(typeof b.text === 'string' ? { text: b.text } : {}),
                ...(typeof b.url === 'string' ? { url: b.url } : {}),
              })),
            }
          : {}),
      })),
  };
}
