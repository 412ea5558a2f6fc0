import { Injectable } from '@nestjs/common';
import { EntityManager, LessThanOrEqual } from 'typeorm';
import { Tx } from '../../infra/database/tx';
import { Trial, TrialStatus } from './entities/trial.entity';

/**
 * The writes of `trials` (one per organization, `ux_trials_org`). A trial leaves `active` once, by expiring or
 * converting; the move is conditional, so a repeated expiry changes nothing.
 */
@Injectable()
export class TrialsRepository {
  /** Active trials whose window has passed (at most `limit`); ids only. A read: any manager, in a transaction or not. */
  async findDueIds(manager: EntityManager, now: Date, limit: number): Promise<string[]> {
    const due = await manager.getRepository(Trial).find({
      where: { status: 'active', endsAt: LessThanOrEqual(now) },
      select: { id: true },
      take: limit,
    });
    return due.map((t) => t.id);
  }

  async findById(tx: Tx, id: string): Promise<Trial | null> {
    return tx.findOneBy(Trial, { id });
  }

  async findActive(tx: Tx, organizationId: string): Promise<Trial | null> {
    return tx.findOneBy(Trial, { organizationId, status: 'active' });
  }

  async existsFor(tx: Tx, organizationId: string): Promise<boolean> {
    return tx.existsBy(Trial, { organizationId });
  }

  async insert(tx: Tx, trial: Trial): Promise<void> {
    await tx.insert(Trial, trial);
  }

  /** Moves an active trial to its end state; false when it had already left `active`. */
  async end(tx: Tx, id: string, status: Exclude<TrialStatus, 'active'>): Promise<boolean> {
    const { affected } = await tx.update(Trial, { id, status: 'active' }, { status });
    return affected === 1;
  }
}
