import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { GrantState } from './allocation';
import { MinuteGrant } from './entities/minute-grant.entity';
import { LockedBalance } from './usage-balances.repository';

export type NewGrant = Pick<MinuteGrant, 'kind' | 'grantedMins' | 'subscriptionId' | 'periodStart' | 'expiresAt'>;

/** A grant as the ledger arithmetic (allocation.ts) sees it. */
export function grantState(grant: MinuteGrant): GrantState {
  return {
    id: grant.id,
    kind: grant.kind,
    remainingMins: grant.remainingMins,
    reservedMins: grant.reservedMins,
    expiresAt: grant.expiresAt ? grant.expiresAt.getTime() : null,
    grantedAt: grant.grantedAt.getTime(),
    closed: grant.closed,
  };
}

/**
 * The SQL of `minute_grants`. Writes run under the organization's balance lock (UsageBalancesRepository.lock),
 * in its transaction; reads of open grants are HoldingsRepository's one statement.
 */
@Injectable()
export class MinuteGrantsRepository {
  /** A fresh grant, stamped with the database clock read under the lock. */
  async insert(tx: Tx, locked: LockedBalance, grant: NewGrant): Promise<MinuteGrant> {
    const row = tx.create(MinuteGrant, {
      id: uuidv7(),
      organizationId: locked.balance.organizationId,
      ...grant,
      remainingMins: grant.grantedMins,
      reservedMins: 0,
      usedMins: 0,
      closed: false,
      grantedAt: locked.now,
    });
    await tx.insert(MinuteGrant, row);
    return row;
  }

  /** An organization's open grants, all of them or those of one subscription or kind. */
  async findOpen(
    tx: Tx,
    organizationId: string,
    where: { subscriptionId?: string; kind?: 'trial' },
  ): Promise<MinuteGrant[]> {
    return tx.find(MinuteGrant, { where: { organizationId, closed: false, ...where } });
  }

  /**
   * Writes back the grants whose state changed, plus minutes used per grant (`usedMins`), in one statement
   * whatever the number of grants.
   */
  async saveStates(
    tx: Tx,
    grants: MinuteGrant[],
    states: GrantState[],
    used: ReadonlyMap<string, number> = new Map(),
  ): Promise<void> {
    const byId = new Map(states.map((s) => [s.id, s]));
    const changes = grants.flatMap((grant) => {
      const s = byId.get(grant.id) ?? grant;
      const usedMins = used.get(grant.id) ?? 0;
      const same =
        s.remainingMins === grant.remainingMins && s.reservedMins === grant.reservedMins && s.closed === grant.closed;
      if (same && !usedMins) return [];
      Object.assign(grant, {
        remainingMins: s.remainingMins,
        reservedMins: s.reservedMins,
        closed: s.closed,
        usedMins: grant.usedMins + usedMins,
      });
      return [{ id: grant.id, remaining: s.remainingMins, reserved: s.reservedMins, closed: s.closed, used: usedMins }];
    });
    if (!changes.length) return;
    await tx.query(
      `UPDATE minute_grants g
          SET remaining_mins = c.remaining, reserved_mins = c.reserved, closed = c.closed,
              used_mins = g.used_mins + c.used
         FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, remaining int, reserved int, closed boolean, used int)
        WHERE g.id = c.id`,
      [JSON.stringify(changes)],
    );
  }
}
