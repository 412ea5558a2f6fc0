import { Injectable } from '@nestjs/common';
import { EntityManager, LessThanOrEqual } from 'typeorm';
import { Tx } from '../../infra/database/tx';
import { Subscription } from './entities/subscription.entity';

/**
 * The writes of `subscriptions` (reads of what an organization holds are HoldingsRepository's one statement).
 * Period and status moves run under the organization's balance lock and apply only to an active subscription,
 * so a repeated renewal or cancellation changes nothing.
 */
@Injectable()
export class SubscriptionsRepository {
  /** Active subscriptions whose period has ended (at most `limit`); ids only. */
  async findDueIds(manager: EntityManager, now: Date, limit: number): Promise<string[]> {
    const due = await manager.getRepository(Subscription).find({
      where: { status: 'active', currentPeriodEnd: LessThanOrEqual(now) },
      select: { id: true },
      take: limit,
    });
    return due.map((s) => s.id);
  }

  async findById(tx: Tx, id: string): Promise<Subscription | null> {
    return tx.findOneBy(Subscription, { id });
  }

  async insert(tx: Tx, sub: Subscription): Promise<void> {
    await tx.insert(Subscription, sub);
  }

  /** Starts the next period of an active subscription; false when it has ended. */
  async startPeriod(tx: Tx, id: string, start: Date, end: Date): Promise<boolean> {
    const { affected } = await tx.update(
      Subscription,
      { id, status: 'active' },
      { currentPeriodStart: start, currentPeriodEnd: end },
    );
    return affected === 1;
  }

  /** Ends an active subscription now; false when it had already ended. */
  async cancel(tx: Tx, id: string, at: Date): Promise<boolean> {
    const { affected } = await tx.update(
      Subscription,
      { id, status: 'active' },
      { status: 'canceled', canceledAt: at },
    );
    return affected === 1;
  }

  /** Marks an active subscription to end at its period's end (the renewal then ends it). */
  async cancelAtPeriodEnd(tx: Tx, id: string): Promise<boolean> {
    const { affected } = await tx.update(Subscription, { id, status: 'active' }, { cancelAtPeriodEnd: true });
    return affected === 1;
  }
}
