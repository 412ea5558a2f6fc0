import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { Tx } from '../../infra/database/tx';
import { MessagingAccount } from './messaging-account.entity';

/** The SQL of `messaging_accounts`. */
@Injectable()
export class MessagingAccountsRepository {
  constructor(@InjectRepository(MessagingAccount) private readonly accounts: Repository<MessagingAccount>) {}

  /** The world's account when it is active, or null. */
  findActive(world: World, id: string): Promise<MessagingAccount | null> {
    return this.accounts.findOneBy({ id, ...worldWhere(world), status: 'active' });
  }

  /** Counts a message sent at `now`, in the transaction that stores it (the last time never moves back). */
  async recordSent(tx: Tx, id: string, now: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(MessagingAccount)
      .set({
        messagesSent: () => 'messages_sent + 1',
        lastMessageAt: () => 'GREATEST(COALESCE(last_message_at, :now), :now)',
      })
      .where('id = :id', { id })
      .setParameters({ now })
      .execute();
  }

  /** An account a stored row references (so it exists). */
  findOrFail(id: string): Promise<MessagingAccount> {
    return this.accounts.findOneByOrFail({ id });
  }
}
