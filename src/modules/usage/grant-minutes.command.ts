import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { MinuteGrant } from './entities/minute-grant.entity';
import { EntryInput, MinuteLedgerRepository } from './minute-ledger.repository';
import { MinuteGrantsRepository, NewGrant } from './minute-grants.repository';
import { LockedBalance } from './usage-balances.repository';

/**
 * Grants minutes (a period's included minutes, a trial, a top-up): the grant and the ledger row that records
 * it, so the balance always equals what the ledger says. Runs in the caller's transaction, after its balance lock.
 */
@Injectable()
export class GrantMinutesCommand {
  constructor(
    private readonly grants: MinuteGrantsRepository,
    private readonly ledger: MinuteLedgerRepository,
  ) {}

  async execute(tx: Tx, locked: LockedBalance, grant: NewGrant, entry: EntryInput): Promise<MinuteGrant> {
    const row = await this.grants.insert(tx, locked, grant);
    // A zero grant with a zero entry (a period of an unlimited plan) leaves no ledger row.
    if (grant.grantedMins !== 0 || entry.amountMins !== 0) await this.ledger.append(tx, locked, entry);
    return row;
  }
}
