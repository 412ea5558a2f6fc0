import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { CloseGrantsCommand } from './close-grants.command';
import { TrialsRepository } from './trials.repository';
import { LockedBalance } from './usage-balances.repository';

const ENDINGS = {
  expired: { type: 'trial_expiration', what: 'unspent trial minutes expired' },
  converted: { type: 'trial_conversion', what: 'unspent trial minutes closed on subscribing' },
} as const;

/**
 * Ends an active trial, by expiry or by subscribing: the trial leaves `active` and its unspent minutes close, with
 * a ledger row even when none were left (a trial's end is always on the ledger). Runs in the caller's
 * transaction, after its balance lock; false when the trial had already ended.
 */
@Injectable()
export class EndTrialCommand {
  constructor(
    private readonly trials: TrialsRepository,
    private readonly closeGrants: CloseGrantsCommand,
  ) {}

  async execute(tx: Tx, locked: LockedBalance, trialId: string, outcome: keyof typeof ENDINGS): Promise<boolean> {
    if (!(await this.trials.end(tx, trialId, outcome))) return false;
    await this.closeGrants.execute(tx, locked, {
      where: { kind: 'trial' },
      ...ENDINGS[outcome],
      productType: 'outreach',
      alwaysRecord: true,
    });
    return true;
  }
}
