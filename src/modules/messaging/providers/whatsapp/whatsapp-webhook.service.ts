import { Injectable, Logger } from '@nestjs/common';
import { toE164 } from '../../../../common/validation/e164';
import { DeliveryStatusService } from '../../delivery-status.service';
import { DELIVERY_STATUSES, DeliveryStatus } from '../../message.entity';
import { MessagingAccount } from '../../messaging-account.entity';
import { MessagingAccountsService } from '../../messaging-accounts.service';
import { RecordInboundMessageCommand } from '../../record-inbound-message.command';
import { WhatsAppChangeValue, WhatsAppInboundMessage, WhatsAppWebhookPayload } from './whatsapp-graph.types';

const REPORTED_STATUSES: readonly string[] = DELIVERY_STATUSES.filter((s) => s !== 'accepted');
/** Media that may carry a caption (audio and stickers never do). */
const CAPTIONED = ['image', 'video', 'document'] as const;

/** Applies a verified WhatsApp webhook: user messages become inbound messages, statuses move deliveryStatus. */
@Injectable()
export class WhatsAppWebhookService {
  private readonly logger = new Logger(WhatsAppWebhookService.name);

  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly recordInbound: RecordInboundMessageCommand,
    private readonly statuses: DeliveryStatusService,
  ) {}

  async handle(payload: WhatsAppWebhookPayload): Promise<void> {
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        const value = change.value;
        const phoneNumberId = value?.metadata?.phone_number_id;
        if (!value || !phoneNumberId) continue;
        const account = await this.accounts.findByPhoneNumberId(phoneNumberId);
        if (!account) {
          // Not ours (another app on the same business account): acknowledge, store nothing.
          this.logger.warn({ phoneNumberId }, 'WhatsApp webhook for an unknown phone-number id');
          continue;
        }
        for (const message of value.messages ?? []) await this.inbound(account, value, message);
        for (const status of value.statuses ?? []) {
          if (!status.id || !status.status || !REPORTED_STATUSES.includes(status.status)) continue;
          const error = status.errors?.[0];
          const detail = error?.error_data?.details ?? error?.message ?? error?.title ?? '';
          const reason = error ? `${error.code ?? ''} ${detail}`.trim() : undefined;
          await this.statuses.apply(account.id, status.id, status.status as DeliveryStatus, reason);
        }
      }
    }
  }

  private async inbound(account: MessagingAccount, value: WhatsAppChangeValue, message: WhatsAppInboundMessage) {
    if (!message.id || !message.from) return;
    // The Cloud API sends the user's number as digits with the country code, without `+`.
    const from = toE164(`+${message.from.replace(/^\+/, '')}`);
    if (!from) {
      this.logger.warn({ from: message.from }, 'WhatsApp message from a number that is not E.164; skipped');
      return;
    }
    const type = message.type ?? 'text';
    const captioned = CAPTIONED.find((t) => t === type);
    const media = captioned ? message[captioned] : undefined;
    const text =
      message.text?.body ??
      message.button?.text ??
      message.interactive?.button_reply?.title ??
      message.interactive?.list_reply?.title ??
      media?.caption ??
      '';
    const seconds = Number(message.timestamp);
    await this.recordInbound.execute({
      account,
      from,
      name: value.contacts?.find((c) => c.wa_id === message.from)?.profile?.name,
      providerMessageId: message.id,
      messageType: type,
      text,
      mediaCaption: media?.caption ?? null,
      timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
    });
  }
}
