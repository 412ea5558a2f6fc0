import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { World, worldWhere } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { MessagingAccount } from './messaging-account.entity';

/** The SQL of `messaging_accounts`. */
@Injectable()
export class MessagingAccountsRepository {
  constructor(@InjectRepository(MessagingAccount) private readonly accounts: Repository<MessagingAccount>) {}

  /** The world's accounts, newest first. */
  list(world: World): Promise<MessagingAccount[]> {
    // The response's columns, named, so a column added later is not read by the list.
    return this.accounts.find({
      select: {
        id: true,
        status: true,
        statusMessage: true,
        wabaId: true,
        phoneNumberId: true,
        displayPhoneNumber: true,
        verifiedName: true,
        qualityRating: true,
        messagesSent: true,
        messagesReceived: true,
        lastMessageAt: true,
        createdAt: true,
        livemode: true,
      },
      where: worldWhere(world),
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Any organization's account by id. */
  find(id: string): Promise<MessagingAccount | null> {
    return this.accounts.findOneBy({ id });
  }

  /** The world's account by id, or null. */
  findInWorld(world: World, id: string): Promise<MessagingAccount | null> {
    return this.accounts.findOneBy({ id, ...worldWhere(world) });
  }

  findByPhoneNumberId(phoneNumberId: string): Promise<MessagingAccount | null> {
    return this.accounts.findOneBy({ phoneNumberId });
  }

  /** In the transaction that checked the organization's cap. */
  insert(tx: Tx, values: Partial<MessagingAccount>): Promise<MessagingAccount> {
    return tx.save(tx.create(MessagingAccount, { id: uuidv7(), ...values }));
  }

  async setAccessToken(id: string, accessTokenSealed: string | null): Promise<void> {
    await this.accounts.update({ id }, { accessTokenSealed });
  }

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

  /** Counts a user's message written at `at`, in the transaction that stores it (the last time never moves back). */
  async recordReceived(tx: Tx, id: string, at: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(MessagingAccount)
      .set({
        messagesReceived: () => 'messages_received + 1',
        lastMessageAt: () => 'GREATEST(COALESCE(last_message_at, :ts), :ts)',
      })
      .where('id = :id', { id })
      .setParameters({ ts: at })
      .execute();
  }

  /** Every stored access token, sealed (the accounts that keep their own). */
  async sealedTokens(): Promise<string[]> {
    const rows: Array<{ access_token_sealed: string }> = await this.accounts.query(
      'SELECT access_token_sealed FROM messaging_accounts WHERE access_token_sealed IS NOT NULL',
    );
    return rows.map((r) => r.access_token_sealed);
  }

  /** An account a stored row references (so it exists). */
  findOrFail(id: string): Promise<MessagingAccount> {
    return this.accounts.findOneByOrFail({ id });
  }
}
