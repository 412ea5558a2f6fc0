import fc from 'fast-check';
import {
  GrantState,
  applyReservation,
  applySettlement,
  availableMins,
  balanceMins,
  planClose,
  planReservation,
  planSettlement,
  startedMinutes,
} from './allocation';

/**
 * Property: after any random sequence of grants, reservations, settlements and renewals, the engine built on
 * allocation.ts agrees with an independent counter model, the ledger rows chain, and nothing goes negative.
 */
type Op =
  | { kind: 'topup'; mins: number }
  | { kind: 'renew'; mins: number }
  | { kind: 'reserve' }
  | { kind: 'settle'; pick: number; seconds: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant<'topup'>('topup'),
    mins: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant<'renew'>('renew'),
    mins: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ kind: fc.constant<'reserve'>('reserve') }),
  fc.record({
    kind: fc.constant<'settle'>('settle'),
    pick: fc.nat(),
    seconds: fc.integer({ min: 0, max: 400 }),
  }),
);

interface Row {
  amount: number;
  balanceAfter: number;
}

/** The system under test: grant states moved only through allocation.ts, one ledger row per movement. */
class Engine {
  grants: GrantState[] = [];
  rows: Row[] = [];
  reservations = new Map<number, { allocations: { grantId: string; mins: number }[]; reservedAt: number }>();
  private seq = 0;

  private append(amount: number) {
    const before = this.rows.length ? this.rows[this.rows.length - 1].balanceAfter : 0;
    this.rows.push({ amount, balanceAfter: before + amount });
  }
  topup(t: number, mins: number) {
    this.grants.push({
      id: `g${this.seq++}`,
      kind: 'topup',
      remainingMins: mins,
      reservedMins: 0,
      expiresAt: null,
      grantedAt: t,
      closed: false,
    });
    this.append(mins);
  }
  renew(t: number, mins: number) {
    let expired = 0;
    this.grants = this.grants.map((g) => {
      if (g.kind !== 'included' || g.closed) return g;
      const c = planClose(g);
      expired += c.expiredMins;
      return c.after;
    });
    if (expired) this.append(-expired);
    this.grants.push({
      id: `g${this.seq++}`,
      kind: 'included',
      remainingMins: mins,
      reservedMins: 0,
      expiresAt: 1e12,
      grantedAt: t,
      closed: false,
    });
    this.append(mins);
  }
  reserve(t: number, call: number): boolean {
    const plan = planReservation(this.grants, t);
    if (!plan) return false;
    this.grants = applyReservation(this.grants, plan);
    this.reservations.set(call, { allocations: plan, reservedAt: t });
    return true;
  }
  settle(t: number, call: number, seconds: number) {
    const reservation = this.reservations.get(call)!;
    this.reservations.delete(call);
    const plan = planSettlement({
      grants: this.grants,
      reservation,
      startedMins: startedMinutes(seconds),
      covered: false,
      now: t,
    });
    this.grants = applySettlement(this.grants, reservation, plan);
    this.append(-plan.chargedMins);
    if (plan.expiredMins) this.append(-plan.expiredMins);
    return plan;
  }
}

/** The independent model: plain counters per pool, following the written minute rules directly. */
class Model {
  period = 0;
  includedFree = 0;
  includedGrantedAt = -1;
  topups: { grantedAt: number; free: number }[] = [];
  calls = new Map<number, { pool: 'included' | number; period: number; reservedAt: number }>();
  balance = 0;

  free() {
    return this.includedFree + this.topups.reduce((s, p) => s + p.free, 0);
  }
  topup(t: number, mins: number) {
    this.topups.push({ grantedAt: t, free: mins });
    this.balance += mins;
  }
  renew(t: number, mins: number) {
    this.balance -= this.includedFree;
    this.period++;
    this.includedFree = mins;
    this.includedGrantedAt = t;
    this.balance += mins;
  }
  reserve(t: number, call: number): boolean {
    if (this.includedFree > 0) {
      this.includedFree--;
      this.calls.set(call, {
        pool: 'included',
        period: this.period,
        reservedAt: t,
      });
      return true;
    }
    const i = this.topups.findIndex((p) => p.free > 0);
    if (i < 0) return false;
    this.topups[i].free--;
    this.calls.set(call, { pool: i, period: this.period, reservedAt: t });
    return true;
  }
  settle(call: number, seconds: number): { charged: number; excess: number } {
    const c = this.calls.get(call)!;
    this.calls.delete(call);
    let need = seconds > 0 ? Math.ceil(seconds / 60) : 0;
    let charged = 0;
    const sameIncluded = c.pool === 'included' && c.period === this.period;
    if (need > 0) {
      charged++;
      need--;
    } else if (c.pool === 'included') {
      if (sameIncluded) this.includedFree++;
    } else {
      this.topups[c.pool].free++;
    }
    // More minutes only from what existed at reservation: the same period's included minutes, older top-ups.
    if (need > 0 && c.period === this.period && this.includedGrantedAt <= c.reservedAt) {
      const take = Math.min(need, this.includedFree);
      this.includedFree -= take;
      charged += take;
      need -= take;
    }
    for (const p of this.topups) {
      if (need <= 0) break;
      if (p.grantedAt > c.reservedAt) continue;
      const take = Math.min(need, p.free);
      p.free -= take;
      charged += take;
      need -= take;
    }
    this.balance -= charged;
    // A held minute of an ended period that the call did not use expires now.
    if (seconds <= 0 && c.pool === 'included' && !sameIncluded) this.balance -= 1;
    return { charged, excess: need };
  }
}

describe('ledger property: engine vs independent model', () => {
  it('balance = sum of rows = model balance; rows chain; nothing negative; K free minutes admit K reservations', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 80 }), (ops) => {
        const engine = new Engine();
        const model = new Model();
        let t = 1;
        let nextCall = 0;
        for (const op of ops) {
          t++;
          if (op.kind === 'topup') {
            engine.topup(t, op.mins);
            model.topup(t, op.mins);
          } else if (op.kind === 'renew') {
            engine.renew(t, op.mins);
            model.renew(t, op.mins);
          } else if (op.kind === 'reserve') {
            const call = nextCall++;
            expect(engine.reserve(t, call)).toBe(model.reserve(t, call));
          } else {
            const open = [...engine.reservations.keys()];
            if (!open.length) continue;
            const call = open[op.pick % open.length];
            const plan = engine.settle(t, call, op.seconds);
            const expected = model.settle(call, op.seconds);
            expect({
              charged: plan.chargedMins,
              excess: plan.excessMins,
            }).toEqual(expected);
          }
          let running = 0;
          for (const row of engine.rows) {
            running += row.amount;
            expect(row.balanceAfter).toBe(running);
            expect(row.balanceAfter).toBeGreaterThanOrEqual(0);
          }
          expect(balanceMins(engine.grants)).toBe(running);
          expect(running).toBe(model.balance);
          expect(availableMins(engine.grants, t)).toBe(model.free());
          for (const g of engine.grants) {
            expect(g.reservedMins).toBeGreaterThanOrEqual(0);
            expect(g.remainingMins).toBeGreaterThanOrEqual(g.reservedMins);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
