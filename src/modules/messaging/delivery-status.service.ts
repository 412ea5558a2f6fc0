import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DeliveryStatus, Message } from './message.entity';

/** The forward order of the good path; a report never moves a message backwards (webhooks arrive out of order). */
const PROGRESS: DeliveryStatus[] = ['accepted', 'sent', 'delivered', 'read'];

@Injectable()
export class DeliveryStatusService {
  constructor(@InjectRepository(Message) private readonly messages: Repository<Message>) {}

  /**
   * Records a provider's status report for one of our outbound messages. `failed` wins over anything but `read`;
   * an unknown message id (not ours, or reported before we stored it) changes nothing.
   */
  async apply(accountId: string, providerMessageId: string, status: DeliveryStatus, error?: string): Promise<boolean> {
    const qb = this.messages
      .createQueryBuilder()
      .update(Message)
      .set({ deliveryStatus: status, ...(status === 'failed' ? { deliveryError: error ?? 'Delivery failed' } : {}) })
      .where('account_id = :accountId AND provider_message_id = :providerMessageId AND direction = :outbound', {
        accountId,
        providerMessageId,
        outbound: 'outbound',
      });
    if (status === 'failed') {
      qb.andWhere("(delivery_status IS NULL OR delivery_status NOT IN ('read', 'failed'))");
    } else {
      const rank = (expression: string) => `array_position(CAST(:progress AS text[]), ${expression})`;
      qb.andWhere(
        `(delivery_status IS NULL OR (delivery_status <> 'failed' AND ${rank('delivery_status')} < ${rank('CAST(:status AS text)')}))`,
        { progress: PROGRESS, status },
      );
    }
    const result = await qb.execute();
    return (result.affected ?? 0) > 0;
  }
}
