import { FakeDataSource } from '../../infra/testing/fake-data-source';
import type { Tx } from '../../infra/database/tx';
import { ReserveMinutesCommand } from './reserve-minutes.command';
import { InMemoryLedger } from './testing/in-memory-ledger';

describe('ReserveMinutesCommand', () => {
  let ledger: InMemoryLedger;
  let tx: Tx;

  beforeEach(async () => {
    ledger = new InMemoryLedger();
    // Any transaction will do: the command runs in its caller's.
    await new FakeDataSource().transaction((t) => Promise.resolve((tx = t)));
  });

  const reserve = (...callIds: string[]) =>
    new ReserveMinutesCommand(
      ledger.balancesRepository(),
      ledger.reservationsRepository(),
      ledger.holdingsRepository(),
    ).execute(tx, 'org-1', callIds);

  it('reserves one minute per call, in the order given, until the minutes run out', async () => {
    ledger.subscribe();
    const grant = ledger.grant(2);
    const outcomes = await reserve('a', 'b', 'c');
    expect([...outcomes]).toEqual([
      ['a', { reserved: true }],
      ['b', { reserved: true }],
      ['c', { reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' }],
    ]);
    expect(ledger.grantById(grant.id).reservedMins).toBe(2);
    expect(ledger.balance).toEqual({ balanceMins: 2, reservedMins: 2 });
    expect(ledger.reservationOf('a')).toMatchObject({ allocations: [{ grantId: grant.id, mins: 1 }], covered: false });
    expect(ledger.reservationOf('c')).toBeUndefined();
  });

  it('reserves nothing twice: a call already reserved keeps its reservation, without taking the lock', async () => {
    ledger.subscribe();
    ledger.grant(5);
    await reserve('a');
    expect(ledger.locks).toBe(1);
    expect([...(await reserve('a'))]).toEqual([['a', { reserved: true }]]);
    expect(ledger.locks).toBe(1);
    expect(ledger.reservations).toHaveLength(1);
    expect(ledger.balance.reservedMins).toBe(1);
  });

  it('reserves the new calls of a batch that repeats one', async () => {
    ledger.subscribe();
    ledger.grant(1);
    await reserve('a');
    const outcomes = await reserve('a', 'b');
    expect(outcomes.get('a')).toEqual({ reserved: true });
    expect(outcomes.get('b')).toEqual({ reserved: false, reason: 'OUTBOUND_MINUTES_EXHAUSTED' });
  });

  it('refuses every call without an outbound plan, whatever the minutes', async () => {
    ledger.subscribe({ productType: 'receptionist' });
    ledger.grant(100, { kind: 'topup' });
    expect([...(await reserve('a', 'b'))]).toEqual([
      ['a', { reserved: false, reason: 'OUTBOUND_PLAN_REQUIRED' }],
      ['b', { reserved: false, reason: 'OUTBOUND_PLAN_REQUIRED' }],
    ]);
    expect(ledger.reservations).toEqual([]);
  });

  it('a running trial is an outbound plan', async () => {
    ledger.startTrial(1);
    expect((await reserve('a')).get('a')).toEqual({ reserved: true });
  });

  it('holds nothing for a call the plan covers (complimentary), and records it as covered', async () => {
    ledger.subscribe({ complimentary: true, productType: 'receptionist', tier: null });
    const outcomes = await reserve('a', 'b');
    expect([...outcomes.values()]).toEqual([{ reserved: true }, { reserved: true }]);
    expect(ledger.reservations.map((r) => [r.allocations, r.covered])).toEqual([
      [[], true],
      [[], true],
    ]);
    expect(ledger.balance.reservedMins).toBe(0);
  });

  it('draws expiring minutes first, never from a closed or expired grant', async () => {
    ledger.subscribe();
    const topup = ledger.grant(5, { kind: 'topup' });
    const closed = ledger.grant(5, { closed: true, reservedMins: 1 });
    const expired = ledger.grant(5, { expiresAt: new Date(ledger.now.getTime() - 1) });
    const expiring = ledger.grant(1, { expiresAt: new Date(ledger.now.getTime() + 60_000) });
    await reserve('a', 'b');
    expect(ledger.reservationOf('a')!.allocations).toEqual([{ grantId: expiring.id, mins: 1 }]);
    expect(ledger.reservationOf('b')!.allocations).toEqual([{ grantId: topup.id, mins: 1 }]);
    expect([closed, expired].map((g) => ledger.grantById(g.id).reservedMins)).toEqual([1, 0]);
  });

  it('takes the balance lock once for the whole batch', async () => {
    ledger.subscribe();
    ledger.grant(10);
    await reserve('a', 'b', 'c', 'd');
    expect(ledger.locks).toBe(1);
  });
});
