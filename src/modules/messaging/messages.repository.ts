import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { World, worldWhere } from '../../common/auth/world';
import { Tx } from '../../infra/database/tx';
import { deliveryMoveCondition } from './delivery-status-transitions';
import { DeliveryStatus, Message } from './message.entity';
import { ProviderError, ResumableSend } from './providers/messaging-provider';

/** A message as the provider names it in its status reports. */
export interface ProviderMessageRef {
  accountId: string;
  providerMessageId: string;
}

/** A provider's report about one of our outbound messages: its new status, and why when `failed`. */
export interface DeliveryReport extends ProviderMessageRef {
  status: DeliveryStatus;
  error?: ProviderError;
}

/** What a moved message returns: its event's payload and world, without reading the row again. */
export interface MovedMessage {
  id: string;
  conversation_id: string;
  sender_type: string;
  organization_id: string;
  livemode: boolean;
}

/** A message as first stored: its send's request is kept by `keepSend`, once the provider has built it. */
export type NewMessage = Omit<Partial<Message>, 'pendingSend'>;

/** The SQL of `messages` read and sent by the API, and their delivery status moves. */
@Injectable()
export class MessagesRepository {
  constructor(@InjectRepository(Message) private readonly messages: Repository<Message>) {}

  /** One statement: `manager` may be a transaction's or, alone, the data source's (atomic by itself). */
  async insert(manager: EntityManager, message: NewMessage): Promise<void> {
    await manager.insert(Message, message);
  }

  /**
   * Stores a message the provider delivered, unless the account already holds one of its provider id (a webhook
   * delivered twice); true when stored.
   */
  async insertUnlessKnown(tx: Tx, message: NewMessage): Promise<boolean> {
    const inserted = await tx.createQueryBuilder().insert().into(Message).values(message).orIgnore().execute();
    return inserted.raw.length > 0;
  }

  /** A message read in `tx`, known to exist (stored by it, or its provider id seen). */
  getIn(tx: Tx, where: { id: string } | ProviderMessageRef): Promise<Message> {
    return tx.findOneByOrFail(Message, where);
  }

  /** A message of any world (a job names it by id), or null. */
  findById(id: string): Promise<Message | null> {
    return this.messages.findOneBy({ id });
  }

  find(world: World, id: string): Promise<Message | null> {
    return this.messages.findOneBy({ id, ...worldWhere(world) });
  }

  /** The conversation's `limit` most recent messages, newest first. */
  recent(organizationId: string, conversationId: string, limit: number): Promise<Message[]> {
    return this.messages.find({
      where: { conversationId, organizationId },
      order: { timestamp: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /**
   * Whether a user sent the account a file of this provider id: the only ids the account may send on, so a
   * tenant cannot have the provider's token fetch or forward a file that is not its own.
   */
  receivedMedia(accountId: string, mediaId: string): Promise<boolean> {
    return this.messages.existsBy({ accountId, mediaId, direction: 'inbound' });
  }

  /** Whether the account has a message (either direction) the provider knows by this id. */
  exists(tx: Tx, ref: ProviderMessageRef): Promise<boolean> {
    return tx.existsBy(Message, { accountId: ref.accountId, providerMessageId: ref.providerMessageId });
  }

  /**
   * Moves the outbound message to `status` when DELIVERY_TRANSITIONS allows it from the status it holds now,
   * in one conditional UPDATE: of two reports applied at once, the second waits for the first's row lock and is
   * checked against what the first wrote, so a message never moves backwards. `failed` stores the provider's
   * error. The moved message, or null when there is no such outbound message or the move is not allowed.
   */
  async moveDeliveryStatus(tx: Tx, report: DeliveryReport): Promise<MovedMessage | null> {
    const { status, error } = report;
    const result = await tx
      .createQueryBuilder()
      .update(Message)
      .set({
        deliveryStatus: status,
        ...(status === 'failed'
          ? { errorCode: error?.code ?? null, errorTitle: error?.title || 'Delivery failed' }
          : {}),
      })
      .where('account_id = :accountId AND provider_message_id = :providerMessageId AND direction = :outbound', {
        accountId: report.accountId,
        providerMessageId: report.providerMessageId,
        outbound: 'outbound',
      })
      .andWhere(deliveryMoveCondition(status))
      .returning('id, conversation_id, sender_type, organization_id, livemode')
      .execute();
    const [moved] = result.raw as MovedMessage[];
    return moved ?? null;
  }

  /**
   * Fails an outbound message the provider never took (no provider id: the send queue gave up on it), as a
   * `failed` report would; null when it has a provider id by now or can no longer fail.
   */
  async failUnsent(tx: Tx, messageId: string, error: ProviderError): Promise<MovedMessage | null> {
    const result = await tx
      .createQueryBuilder()
      .update(Message)
      .set({
        deliveryStatus: 'failed',
        errorCode: error.code,
        errorTitle: error.title || 'Delivery failed',
        pendingSend: null,
      })
      .where('id = :messageId AND provider_message_id IS NULL AND direction = :outbound', {
        messageId,
        outbound: 'outbound',
      })
      .andWhere(deliveryMoveCondition('failed'))
      .returning('id, conversation_id, sender_type, organization_id, livemode')
      .execute();
    const [moved] = result.raw as MovedMessage[];
    return moved ?? null;
  }

  /**
   * Gives an outbound message of the account the provider's id: from the send's answer, or from a status report
   * that names the message by our id (a send left unanswered). True when the message now has this id; false when
   * it has another (a second send of it was taken too) or is not the account's outbound message.
   */
  async attachProviderId(tx: Tx, accountId: string, messageId: string, providerMessageId: string): Promise<boolean> {
    const result = await tx
      .createQueryBuilder()
      .update(Message)
      .set({ providerMessageId, pendingSend: null })
      .where('id = :messageId AND account_id = :accountId AND direction = :outbound', {
        messageId,
        accountId,
        outbound: 'outbound',
      })
      .andWhere('(provider_message_id IS NULL OR provider_message_id = :providerMessageId)', { providerMessageId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Removes an outbound message the provider refused at once (no provider id): the send answers its refusal. */
  /** Keeps the provider's request with an outbound message not yet taken: the sweeper rebuilds its send from it. */
  async keepSend(messageId: string, send: ResumableSend): Promise<void> {
    await this.messages
      .createQueryBuilder()
      .update(Message)
      // jsonb typed as the provider's own shape, which TypeORM's deep-partial type cannot follow.
      .set({ pendingSend: send } as QueryDeepPartialEntity<Message>)
      .where('id = :messageId AND provider_message_id IS NULL', { messageId })
      .execute();
  }

  /** Outbound messages stored before `before` and not taken by the provider, oldest first (the send sweeper's). */
  unsentBefore(before: Date, limit: number): Promise<Message[]> {
    return this.messages
      .createQueryBuilder('m')
      .where("m.direction = 'outbound' AND m.delivery_status = 'accepted' AND m.provider_message_id IS NULL")
      .andWhere('m.timestamp < :before', { before })
      .orderBy('m.timestamp')
      .limit(limit)
      .getMany();
  }

  /**
   * Counts one rebuild of a message's send, from the count the sweeper read; false when another sweep counted it
   * first or the message moved meanwhile (taken, failed): then this sweep leaves it alone.
   */
  async countSweep(messageId: string, seen: number): Promise<boolean> {
    const result = await this.messages
      .createQueryBuilder()
      .update(Message)
      .set({ sendSweeps: () => 'send_sweeps + 1' })
      .where('id = :messageId AND send_sweeps = :seen', { messageId, seen })
      .andWhere("delivery_status = 'accepted' AND provider_message_id IS NULL")
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** One statement, like `insert`. */
  async deleteUnsent(manager: EntityManager, messageId: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(Message)
      .where('id = :messageId AND provider_message_id IS NULL', { messageId })
      .execute();
  }
}
