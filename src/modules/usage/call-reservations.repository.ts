import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import { Allocation } from './allocation';
import { CallReservation } from './entities/call-reservation.entity';
import { LockedBalance } from './usage-balances.repository';

export interface NewReservation {
  callId: string;
  allocations: Allocation[];
  covered: boolean;
}

/**
 * The SQL of `call_reservations`: one row per dispatched call, `reserved` until its settlement claims it.
 * Reserving also holds the minutes on their grants and on the balance, in the same statement, because it runs
 * under the balance lock (UsageBalancesRepository.lock).
 */
@Injectable()
export class CallReservationsRepository {
  /** Which of these calls already hold a reservation (a repeated dispatch reserves nothing twice). */
  async reservedCallIds(tx: Tx, organizationId: string, callIds: readonly string[]): Promise<Set<string>> {
    if (!callIds.length) return new Set();
    const rows: { call_id: string }[] = await tx.query(
      `SELECT call_id FROM call_reservations WHERE call_id = ANY($1) AND organization_id = $2`,
      [callIds, organizationId],
    );
    return new Set(rows.map((r) => r.call_id));
  }

  /**
   * Records dispatch reservations: their minutes held on their grants and on the balance, and one reservation
   * row each, in one statement.
   */
  async reserve(tx: Tx, locked: LockedBalance, reservations: readonly NewReservation[]): Promise<void> {
    if (!reservations.length) return;
    const perGrant = new Map<string, number>();
    for (const a of reservations.flatMap((r) => r.allocations))
      perGrant.set(a.grantId, (perGrant.get(a.grantId) ?? 0) + a.mins);
    const held = [...perGrant.values()].reduce((sum, mins) => sum + mins, 0);
    await tx.query(
      `WITH held AS (
         UPDATE minute_grants g SET reserved_mins = g.reserved_mins + a.mins
           FROM jsonb_to_recordset($2::jsonb) AS a(id uuid, mins int)
          WHERE g.id = a.id AND g.organization_id = $1
       ), balance AS (
         UPDATE usage_balances SET reserved_mins = reserved_mins + $3, updated_at = now()
          WHERE organization_id = $1 AND $3 <> 0
       )
       INSERT INTO call_reservations (id, organization_id, call_id, allocations, covered, status, created_at)
       SELECT r.id, $1, r.call_id, r.allocations, r.covered, 'reserved', $4
         FROM jsonb_to_recordset($5::jsonb) AS r(id uuid, call_id uuid, allocations jsonb, covered boolean)`,
      [
        locked.balance.organizationId,
        JSON.stringify([...perGrant].map(([id, mins]) => ({ id, mins }))),
        held,
        locked.now,
        JSON.stringify(
          reservations.map((r) => ({
            id: uuidv7(),
            call_id: r.callId,
            allocations: r.allocations,
            covered: r.covered,
          })),
        ),
      ],
    );
    locked.balance.reservedMins += held;
  }

  /**
   * Claims a call's open reservation for its settlement (`reserved` -> `settled`), or nothing when there is none
   * or another settlement claimed it. The row lock makes a concurrent settlement of the same call wait here.
   */
  async claimForSettlement(tx: Tx, organizationId: string, callId: string): Promise<CallReservation | undefined> {
    const [reservation] = await this.claimManyForSettlement(tx, organizationId, [callId]);
    return reservation;
  }

  /** `claimForSettlement` for several calls of one organization in one statement; the reservations claimed. */
  claimManyForSettlement(tx: Tx, organizationId: string, callIds: readonly string[]): Promise<CallReservation[]> {
    return queryEntities(
      tx,
      CallReservation,
      `UPDATE call_reservations SET status = 'settled'
        WHERE call_id = ANY($1) AND organization_id = $2 AND status = 'reserved' RETURNING *`,
      [callIds, organizationId],
    );
  }
}
