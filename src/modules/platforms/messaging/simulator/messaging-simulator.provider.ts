import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { JobQueue } from '../../../../infra/queue/job-queue';
import { JobName } from '../../../../infra/queue/queue-names';
import { templatePlaceholders, variablesMatch } from '../../../messaging/template-placeholders';
import { MessagingAccount } from '../../../messaging/messaging-account.entity';
import {
  MediaStream,
  MessagingProvider,
  Recipient,
  SendMediaInput,
  SendResult,
  SendTemplateInput,
  SendTextInput,
  StoredMessageRef,
  rejected,
} from '../../../messaging/providers/messaging-provider';
import { simulatedMedia } from './simulated-media';
import { SIMULATED_STATUS_STEP_MS } from './simulated-status.job';

/**
 * The default provider (README "Test mode" and docs/providers.md): accepts everything a real provider would, except a message to a phone
 * whose last digit is 9 and a template whose variables do not match its placeholders.
 */
@Injectable()
export class MessagingSimulatorProvider extends MessagingProvider {
  constructor(private readonly jobs: JobQueue) {
    super();
  }

  async sendText(input: SendTextInput): Promise<SendResult> {
    return this.unreachable(input.to) ?? this.accept();
  }

  async sendMedia(input: SendMediaInput): Promise<SendResult> {
    return this.unreachable(input.to) ?? this.accept();
  }

  async sendTemplate(input: SendTemplateInput): Promise<SendResult> {
    const unreachable = this.unreachable(input.to);
    if (unreachable) return unreachable;
    if (!variablesMatch(input.template.body, input.variables)) {
      const wanted = templatePlaceholders(input.template.body);
      return rejected(
        'MESSAGING_API_ERROR',
        `Template parameter mismatch: ${input.template.name} expects ` +
          (wanted.length ? wanted.join(', ') : 'no variables'),
      );
    }
    return this.accept();
  }

  async openMedia(_account: MessagingAccount, mediaId: string): Promise<MediaStream> {
    return simulatedMedia(mediaId);
  }

  /**
   * Plays the provider's asynchronous delivery reports: sent, then delivered, then read, one step apart. All three
   * are scheduled at once; the status path ignores a report that would move the message backwards.
   */
  override async afterStored(message: StoredMessageRef): Promise<void> {
    const steps = (['sent', 'delivered', 'read'] as const).map((status, i) => ({
      data: { ...message, status },
      opts: { delay: (i + 1) * SIMULATED_STATUS_STEP_MS },
    }));
    await this.jobs.addBulk(JobName.SimulateMessageStatus, steps);
  }

  private unreachable(to: Recipient): SendResult | undefined {
    if (to.phone.endsWith('9')) {
      return rejected('MESSAGING_API_ERROR', `Simulator: ${to.phone} is not reachable on the provider`);
    }
    return undefined;
  }

  private accept(): SendResult {
    return { ok: true, providerMessageId: `sim.${randomBytes(12).toString('hex')}` };
  }
}
