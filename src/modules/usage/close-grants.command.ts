import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { planClose } from './allocation';
import { LedgerType } from './entities/minute-ledger-entry.entity';
import { grantState, MinuteGrantsRepository } from './minute-grants.repository';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { LockedBalance } from './usage-balances.repository';

export interface GrantClosing {
  /** Which open grants close: one subscription's, or the trial's. */
  where: { subscriptionId: string } | { kind: 'trial' };
  type: LedgerType;
  /** The ledger row's description after the number of expired minutes. */
  what: string;
  productType: string;
  /** Records the ledger row even when nothing expired (a trial's end is always on the ledger). */
  alwaysRecord?: boolean;
}

/**
 * Closes grants (a period's end, a cancellation, a trial's end): minutes no call holds expire, recorded as one
 * ledger row, so the balance always equals what the ledger says; minutes held by calls in flight stay until they
 * settle. Runs in the caller's transaction, after its balance lock. Returns the minutes expired.
 */
@Injectable()
export class CloseGrantsCommand {
  constructor(
    private readonly grants: MinuteGrantsRepository,
    private readonly ledger: MinuteLedgerRepository,
  ) {}

  async execute(tx: Tx, locked: LockedBalance, closing: GrantClosing): Promise<number> {
    const open = await this.grants.findOpen(tx, locked.balance.organizationId, closing.where);
    let expired = 0;
    for (const grant of open) {
      const { expiredMins, after } = planClose(grantState(grant));
      expired += expiredMins;
      await this.grants.saveStates(tx, [grant], [after]);
    }
    if (expired > 0 || closing.alwaysRecord) {
      await this.ledger.append(tx, locked, {
        type: closing.type,
        amountMins: -expired,
        description: `${expired} ${closing.what}`,
        productType: closing.productType,
      });
    }
    return expired;
  }
}
