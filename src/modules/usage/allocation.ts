/**
 * The minute-allocation arithmetic, free of any database: which grant a reservation holds, what a settlement
 * charges, what a renewal expires. The services load rows, call these functions under the organization's balance
 * lock, and persist the result; the unit and property specs exercise the same functions directly.
 */

export const TIER_MINUTES: Record<1 | 2 | 3, number> = {
  1: 100,
  2: 300,
  3: 800,
};

export type GrantKind = 'included' | 'trial' | 'topup';

export interface GrantState {
  id: string;
  kind: GrantKind;
  /** Unspent minutes still counted in the balance (reserved minutes included). */
  remainingMins: number;
  /** Minutes of `remainingMins` held by calls being dispatched or in progress. */
  reservedMins: number;
  /** Epoch ms when unspent minutes expire; null never (top-ups) or an open-ended period. */
  expiresAt: number | null;
  /** Epoch ms the grant was made; a late call may only draw on grants that existed when it was reserved. */
  grantedAt: number;
  /** Closed by a renewal or expiry: draws nothing new, only settles what it already holds. */
  closed: boolean;
}

export interface Allocation {
  grantId: string;
  mins: number;
}

/** Minutes of a call billed per started minute (docs/contracts/conventions.md). */
export function startedMinutes(durationSeconds: number | null): number {
  if (!durationSeconds || durationSeconds <= 0) return 0;
  return Math.ceil(durationSeconds / 60);
}

/** Exact talk time in minutes, kept to two decimals for display. */
export function talkMinutes(durationSeconds: number | null): number {
  if (!durationSeconds || durationSeconds <= 0) return 0;
  return Math.round((durationSeconds / 60) * 100) / 100;
}

export function isLive(grant: GrantState, now: number): boolean {
  return !grant.closed && (grant.expiresAt === null || grant.expiresAt > now);
}

/**
 * Consumption order: expiring minutes (included and trial) earliest expiry first, open-ended included minutes
 * next, top-ups last because they carry forward; ties by grant time, then id, so the order is total.
 */
export function consumptionOrder(grants: readonly GrantState[]): GrantState[] {
  const rank = (g: GrantState) => (g.kind === 'topup' ? 2 : g.expiresAt === null ? 1 : 0);
  return [...grants].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.expiresAt ?? 0) - (b.expiresAt ?? 0) ||
      a.grantedAt - b.grantedAt ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

export function freeMins(grant: GrantState): number {
  return Math.max(0, grant.remainingMins - grant.reservedMins);
}

/** Minutes available for a new call: live, unreserved. */
export function availableMins(grants: readonly GrantState[], now: number): number {
  return grants.filter((g) => isLive(g, now)).reduce((sum, g) => sum + freeMins(g), 0);
}

/** The balance: every unspent minute not yet expired by a ledger row (reservations included). */
export function balanceMins(grants: readonly GrantState[]): number {
  return grants.reduce((sum, g) => sum + g.remainingMins, 0);
}

/** Takes `mins` free minutes in consumption order from the live grants; null when not enough are free. */
export function planReservation(grants: readonly GrantState[], now: number, mins = 1): Allocation[] | null {
  const taken = draw(consumptionOrder(grants.filter((g) => isLive(g, now))), mins);
  return taken.short > 0 ? null : taken.allocations;
}

function draw(ordered: readonly GrantState[], mins: number): { allocations: Allocation[]; short: number } {
  const allocations: Allocation[] = [];
  let need = mins;
  for (const g of ordered) {
    if (need <= 0) break;
    const take = Math.min(need, freeMins(g));
    if (take > 0) {
      allocations.push({ grantId: g.id, mins: take });
      need -= take;
    }
  }
  return { allocations, short: need };
}

export interface SettlementInput {
  grants: readonly GrantState[];
  /** What the call's dispatch reserved, and when; null for calls never reserved (inbound). */
  reservation: {
    allocations: readonly Allocation[];
    reservedAt: number;
  } | null;
  startedMins: number;
  /** The plan covers the call outright: nothing is charged, the reservation is released. */
  covered: boolean;
  now: number;
}

export interface SettlementPlan {
  /** Minutes deducted per grant (removed from remaining; reserved minutes also released). */
  charges: Allocation[];
  /** Reserved minutes handed back per grant. */
  releases: Allocation[];
  /** Reserved minutes of a closed grant that the call did not use: they expire now. */
  expirations: Allocation[];
  chargedMins: number;
  expiredMins: number;
  /** Started minutes beyond what the call's allocation could cover: recorded, never charged later. */
  excessMins: number;
}

/**
 * Replaces a reservation with the call's started minutes. The reserved minutes are used first; more minutes come
 * only from grants that existed when the call was reserved and are still live (its original allocation), so a
 * call finishing after a renewal never draws on the next period. What cannot be covered is excess.
 */
export function planSettlement(input: SettlementInput): SettlementPlan {
  const byId = new Map(input.grants.map((g) => [g.id, g]));
  const charges = new Map<string, number>();
  const plan: SettlementPlan = {
    charges: [],
    releases: [],
    expirations: [],
    chargedMins: 0,
    expiredMins: 0,
    excessMins: 0,
  };
  let need = input.covered ? 0 : input.startedMins;
  for (const held of input.reservation?.allocations ?? []) {
    const grant = byId.get(held.grantId);
    if (!grant) continue;
    const use = Math.min(need, held.mins);
    need -= use;
    if (use > 0) charges.set(grant.id, (charges.get(grant.id) ?? 0) + use);
    const unused = held.mins - use;
    if (unused > 0) {
      plan.releases.push({ grantId: grant.id, mins: unused });
      if (!isLive(grant, input.now)) plan.expirations.push({ grantId: grant.id, mins: unused });
    }
  }
  if (need > 0) {
    const cutoff = input.reservation?.reservedAt ?? input.now;
    // Reserved minutes of this call are already counted above; what is free elsewhere is drawn in order.
    const eligible = input.grants
      .filter((g) => isLive(g, input.now) && g.grantedAt <= cutoff)
      .map((g) => ({
        ...g,
        reservedMins: g.reservedMins - reservedBy(input.reservation, g.id),
      }))
      .map((g) => ({
        ...g,
        remainingMins: g.remainingMins - (charges.get(g.id) ?? 0),
      }));
    const taken = draw(consumptionOrder(eligible), need);
    for (const a of taken.allocations) charges.set(a.grantId, (charges.get(a.grantId) ?? 0) + a.mins);
    need = taken.short;
  }
  plan.charges = [...charges].map(([grantId, mins]) => ({ grantId, mins }));
  plan.chargedMins = plan.charges.reduce((s, a) => s + a.mins, 0);
  plan.expiredMins = plan.expirations.reduce((s, a) => s + a.mins, 0);
  plan.excessMins = input.covered ? 0 : need;
  return plan;
}

function reservedBy(reservation: SettlementInput['reservation'], grantId: string): number {
  return (reservation?.allocations ?? []).filter((a) => a.grantId === grantId).reduce((s, a) => s + a.mins, 0);
}

/**
 * Applies a settlement plan to grant states (returns new objects). The reserved minutes of this call leave
 * `reservedMins`, charged and expired minutes leave `remainingMins`.
 */
export function applySettlement(
  grants: readonly GrantState[],
  reservation: SettlementInput['reservation'],
  plan: SettlementPlan,
): GrantState[] {
  return grants.map((g) => {
    const charged = plan.charges.filter((a) => a.grantId === g.id).reduce((s, a) => s + a.mins, 0);
    const expired = plan.expirations.filter((a) => a.grantId === g.id).reduce((s, a) => s + a.mins, 0);
    const held = reservedBy(reservation, g.id);
    if (!charged && !expired && !held) return g;
    return {
      ...g,
      remainingMins: g.remainingMins - charged - expired,
      reservedMins: g.reservedMins - held,
    };
  });
}

export function applyReservation(grants: readonly GrantState[], allocations: readonly Allocation[]): GrantState[] {
  return grants.map((g) => {
    const held = allocations.filter((a) => a.grantId === g.id).reduce((s, a) => s + a.mins, 0);
    return held ? { ...g, reservedMins: g.reservedMins + held } : g;
  });
}

/**
 * Closing a grant (renewal, cancellation, trial end) expires its unspent minutes; minutes held by calls in
 * flight stay until those calls settle, so a late completion still lands on its original allocation.
 */
export function planClose(grant: GrantState): {
  expiredMins: number;
  after: GrantState;
} {
  const expiredMins = freeMins(grant);
  return {
    expiredMins,
    after: {
      ...grant,
      remainingMins: grant.remainingMins - expiredMins,
      closed: true,
    },
  };
}

/** Calendar-month period arithmetic in UTC, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(at: Date, months: number): Date {
  const d = new Date(at.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

const DAY_MS = 86_400_000;

/** Whole days until `end`, rounded up, floored at 0; null when there is no end (docs/contracts/conventions.md, "Usage summary"). */
export function daysRemaining(end: Date | null, now: number): number | null {
  if (!end) return null;
  return Math.max(0, Math.ceil((end.getTime() - now) / DAY_MS));
}

/** Removes `allocations` minutes from the grants' remaining minutes (an admin's negative adjustment). */
export function applyDeduction(grants: readonly GrantState[], allocations: readonly Allocation[]): GrantState[] {
  return grants.map((g) => {
    const mins = allocations.filter((a) => a.grantId === g.id).reduce((s, a) => s + a.mins, 0);
    return mins ? { ...g, remainingMins: g.remainingMins - mins } : g;
  });
}
