import { Injectable, Logger } from '@nestjs/common';
import { DELIVERY_STATUSES, DeliveryStatus } from '../../../messaging/message.entity';
import { TEMPLATE_STATUSES, TemplateStatus } from '../../../messaging/messaging-template.entity';
import { MessagingIngress } from '../../../messaging/providers/messaging-ingress';
import { readInbound } from './whatsapp-inbound';
import { WhatsAppChangeValue, WhatsAppTemplateStatusValue, WhatsAppWebhookPayload } from './whatsapp-graph.types';
import { WhatsAppGraphClient } from './whatsapp-graph-client';

const REPORTED_STATUSES: readonly string[] = DELIVERY_STATUSES.filter((s) => s !== 'accepted');

/**
 * A template status event's effect on the stored status: the review outcomes are statuses of their own,
 * REINSTATED means approved again, FLAGGED (quality warning, still sendable) changes nothing.
 */
function templateStatusOf(event: string | undefined): TemplateStatus | null {
  if (event === 'REINSTATED') return 'APPROVED';
  return (TEMPLATE_STATUSES as readonly string[]).includes(event ?? '') ? (event as TemplateStatus) : null;
}

/**
 * Translates a verified WhatsApp webhook into messaging ingress events, in the order Meta listed them: user
 * messages (every kind) as inbound messages, statuses as delivery reports (with Meta's error when failed),
 * template status updates as template statuses. What it cannot translate it skips, as Meta expects an
 * acknowledgement either way.
 */
@Injectable()
export class WhatsAppWebhookService {
  private readonly logger = new Logger(WhatsAppWebhookService.name);
  private readonly processWideWabaId?: string;

  constructor(
    private readonly ingress: MessagingIngress,
    graph: WhatsAppGraphClient,
  ) {
    this.processWideWabaId = graph.settings.wabaId;
  }

  async handle(payload: WhatsAppWebhookPayload): Promise<void> {
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        if (change.field === 'message_template_status_update' && entry.id) {
          await this.templateStatus(entry.id, (change.value ?? {}) as WhatsAppTemplateStatusValue);
        } else if (change.field === 'messages' || change.field === undefined) {
          await this.messages((change.value ?? {}) as WhatsAppChangeValue);
        }
      }
    }
  }

  private async messages(value: WhatsAppChangeValue): Promise<void> {
    const phoneNumberId = value.metadata?.phone_number_id;
    if (!phoneNumberId) return;
    const account = await this.ingress.findAccount(phoneNumberId);
    if (!account) {
      // Not ours (another app on the same business account): acknowledge, store nothing.
      this.logger.warn({ phoneNumberId }, 'WhatsApp webhook for an unknown phone-number id');
      return;
    }
    for (const message of value.messages ?? []) {
      const read = readInbound(value, message);
      if (!read) {
        this.logger.warn({ id: message.id }, 'WhatsApp message naming no user (neither from nor user id); skipped');
        continue;
      }
      await this.ingress.apply({ kind: 'inbound', message: { account, ...read } });
    }
    for (const status of value.statuses ?? []) {
      if (!status.id || !status.status || !REPORTED_STATUSES.includes(status.status)) continue;
      const error = status.errors?.[0];
      await this.ingress.apply({
        kind: 'delivery-status',
        accountId: account.id,
        providerMessageId: status.id,
        status: status.status as DeliveryStatus,
        ...(error
          ? { error: { code: error.code ?? 0, title: error.title ?? error.message ?? error.error_data?.details ?? '' } }
          : {}),
        ourMessageId: status.biz_opaque_callback_data ?? null,
      });
    }
  }

  private async templateStatus(wabaId: string, value: WhatsAppTemplateStatusValue): Promise<void> {
    const status = templateStatusOf(value.event);
    const { message_template_name: name, message_template_language: language } = value;
    if (!status || !name || !language) return;
    await this.ingress.apply({
      kind: 'template-status',
      wabaId,
      processWide: wabaId === this.processWideWabaId,
      name,
      language,
      status,
    });
  }
}
