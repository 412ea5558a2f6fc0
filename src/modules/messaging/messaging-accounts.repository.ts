import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { MessagingAccount } from './messaging-account.entity';

/** The SQL of `messaging_accounts`. */
@Injectable()
export class MessagingAccountsRepository {
  constructor(@InjectRepository(MessagingAccount) private readonly accounts: Repository<MessagingAccount>) {}

  /** An account a stored row references (so it exists). */
  findOrFail(id: string): Promise<MessagingAccount> {
    return this.accounts.findOneByOrFail({ id });
  }
}
