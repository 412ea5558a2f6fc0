import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { EndTrialCommand } from './end-trial.command';
import { TrialsRepository } from './trials.repository';
import { UsageBalancesRepository } from './usage-balances.repository';

/**
 * Ends a trial whose window has passed: its unspent minutes expire (`trial_expiration`). Re-checked under the
 * organization's balance lock, so a trial expires once however many ticks reach it. False when nothing expired.
 */
@Injectable()
export class ExpireTrialCommand {
  constructor(
    private readonly balances: UsageBalancesRepository,
    private readonly trials: TrialsRepository,
    private readonly endTrial: EndTrialCommand,
  ) {}

  async execute(tx: Tx, trialId: string): Promise<boolean> {
    const peek = await this.trials.findById(tx, trialId);
    if (!peek) return false;
    const locked = await this.balances.lock(tx, peek.organizationId);
    const trial = await this.trials.findById(tx, trialId);
    if (trial?.status !== 'active' || trial.endsAt > locked.now) return false;
    return this.endTrial.execute(tx, locked, trial.id, 'expired');
  }
}
