import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { UsageBalance } from './entities/usage-balance.entity';

/** The locked balance of one organization, with the database clock read under the lock. */
export interface LockedBalance {
  balance: UsageBalance;
  now: Date;
}

/**
 * The SQL of `usage_balances`. `lock` takes an organization's balance row FOR UPDATE: that single lock serializes
 * its reservations, settlements and grants, so every other ledger write runs after it, in the same transaction.
 * (The balance moves with each ledger row, in MinuteLedgerRepository's one statement.)
 */
@Injectable()
export class UsageBalancesRepository {
  async lock(tx: Tx, organizationId: string): Promise<LockedBalance> {
    const select = () =>
      tx.query(
        `SELECT balance_mins, reserved_mins, last_entry_at, clock_timestamp() AS now
           FROM usage_balances WHERE organization_id = $1 FOR UPDATE`,
        [organizationId],
      );
    let [row] = await select();
    if (!row) {
      // First ledger action of this organization: create its balance row (a racing creator wins harmlessly).
      await tx.query(
        `INSERT INTO usage_balances (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING`,
        [organizationId],
      );
      [row] = await select();
    }
    const balance = tx.create(UsageBalance, {
      organizationId,
      balanceMins: Number(row.balance_mins),
      reservedMins: Number(row.reserved_mins),
      lastEntryAt: row.last_entry_at ? new Date(row.last_entry_at) : null,
    });
    return { balance, now: new Date(row.now) };
  }
}
