import { FakeDataSource } from '../../infra/testing/fake-data-source';
import type { CallSettlement } from './call-billing.port';
import { MinuteLedgerRepository } from './minute-ledger.repository';
import { ReserveMinutesCommand } from './reserve-minutes.command';
import { SettleCallCommand } from './settle-call.command';
import { InMemoryLedger } from './testing/in-memory-ledger';

const HOUR = 3_600_000;

describe('SettleCallCommand', () => {
  let ledger: InMemoryLedger;
  let db: FakeDataSource;
  /** Replaces the ledger's repository (to fail one write); the in-memory one by default. */
  let ledgerRepository: () => MinuteLedgerRepository;

  beforeEach(() => {
    ledger = new InMemoryLedger();
    db = new FakeDataSource();
    ledgerRepository = () => ledger.ledgerRepository();
  });

  const settleCommand = () =>
    new SettleCallCommand(
      db.asDataSource(),
      ledger.balancesRepository(),
      ledger.grantsRepository(),
      ledgerRepository(),
      ledger.reservationsRepository(),
      ledger.holdingsRepository(),
    );

  const outbound = (callId: string, durationSeconds: number | null): CallSettlement => ({
    organizationId: 'org-1',
    callId,
    direction: 'outbound',
    durationSeconds,
    providerCallId: `provider-${callId}`,
  });

  /** Reserves each call's dispatch minute, as the dispatcher does. */
  const dispatched = async (...callIds: string[]) => {
    const reserve = new ReserveMinutesCommand(
      ledger.balancesRepository(),
      ledger.reservationsRepository(),
      ledger.holdingsRepository(),
    );
    await new FakeDataSource().transaction((tx) => reserve.execute(tx, 'org-1', callIds));
  };

  it("replaces a reservation with the call's started minutes, in one ledger row", async () => {
    ledger.subscribe();
    const grant = ledger.grant(10);
    await dispatched('a');
    await settleCommand().execute(outbound('a', 125));
    expect(ledger.entries).toEqual([
      expect.objectContaining({
        type: 'outbound_call',
        amountMins: -3,
        durationMins: 2.08,
        callId: 'a',
        providerCallId: 'provider-a',
        releasedMins: 1,
        excessMins: 0,
        includedInPlan: false,
        productType: 'outreach',
        description: 'Outbound call, 3 started minute(s)',
        balanceAfterMins: 7,
      }),
    ]);
    expect(ledger.grantById(grant.id)).toMatchObject({ remainingMins: 7, reservedMins: 0, usedMins: 3 });
    expect(ledger.balance).toEqual({ balanceMins: 7, reservedMins: 0 });
    expect(ledger.reservationOf('a')!.status).toBe('settled');
  });

  it('releases the reservation of a call that never connected, charging nothing', async () => {
    ledger.subscribe();
    ledger.grant(10);
    await dispatched('a');
    await settleCommand().execute(outbound('a', null));
    expect(ledger.entries).toEqual([
      expect.objectContaining({ amountMins: -0, releasedMins: 1, balanceAfterMins: 10 }),
    ]);
    expect(ledger.balance).toEqual({ balanceMins: 10, reservedMins: 0 });
  });

  it('settles a call once: a repeated settlement finds its row and changes nothing, without the lock', async () => {
    ledger.subscribe();
    ledger.grant(10);
    await dispatched('a');
    await settleCommand().execute(outbound('a', 60));
    const locks = ledger.locks;
    await settleCommand().execute(outbound('a', 600));
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.locks).toBe(locks);
    expect(ledger.balance.balanceMins).toBe(9);
  });

  it('records minutes beyond the allowance as excess on the allocation the call was reserved on, never charged', async () => {
    ledger.subscribe();
    const grant = ledger.grant(2);
    await dispatched('a');
    await settleCommand().execute(outbound('a', 5 * 60));
    expect(ledger.entries[0]).toMatchObject({
      amountMins: -2,
      excessMins: 3,
      description: 'Outbound call, 5 started minute(s), 3 beyond the allowance (not charged)',
    });
    // Usage counts the excess on the call's own allocation: it may exceed what the grant held.
    expect(ledger.grantById(grant.id)).toMatchObject({ remainingMins: 0, usedMins: 5 });
  });

  it('charges nothing for a call the complimentary plan covers', async () => {
    ledger.subscribe({ complimentary: true });
    ledger.grant(10);
    await dispatched('a');
    await settleCommand().execute(outbound('a', 600));
    expect(ledger.entries[0]).toMatchObject({
      amountMins: -0,
      includedInPlan: true,
      excessMins: 0,
      description: 'Outbound call, 10 started minute(s), covered by the complimentary plan',
    });
  });

  it('bills an inbound call (never reserved) from the grants, or not at all under a receptionist plan', async () => {
    ledger.subscribe();
    ledger.grant(10);
    const inbound = (callId: string): CallSettlement => ({ ...outbound(callId, 90), direction: 'inbound' });
    await settleCommand().execute(inbound('in-1'));
    ledger.subscribe({ productType: 'receptionist', tier: null });
    await settleCommand().execute(inbound('in-2'));
    expect(ledger.entries).toEqual([
      expect.objectContaining({ type: 'inbound_call', amountMins: -2, releasedMins: 0, productType: 'outreach' }),
      expect.objectContaining({
        type: 'inbound_call',
        amountMins: -0,
        productType: 'receptionist',
        description: 'Inbound call, 2 started minute(s), covered by the receptionist plan',
      }),
    ]);
  });

  it('expires the unused reserved minutes of a grant closed while the call ran', async () => {
    ledger.subscribe();
    const grant = ledger.grant(10, { expiresAt: new Date(ledger.now.getTime() + HOUR) });
    await dispatched('a');
    Object.assign(ledger.grantById(grant.id), { closed: true });
    await settleCommand().execute(outbound('a', null));
    expect(ledger.entries.map((e) => [e.type, e.amountMins])).toEqual([
      ['outbound_call', -0],
      ['monthly_renewal', -1],
    ]);
    expect(ledger.grantById(grant.id)).toMatchObject({ remainingMins: 9, reservedMins: 0 });
  });

  it('settles the calls of an organization ending together in one transaction, each once', async () => {
    ledger.subscribe();
    ledger.grant(10);
    await dispatched('a', 'b', 'c');
    const command = settleCommand();
    // Submitted together, they go in one batch (b twice: a repeat).
    await Promise.all([
      command.execute(outbound('a', 60)),
      command.execute(outbound('b', 60)),
      command.execute(outbound('c', 60)),
      command.execute(outbound('b', 60)),
    ]);
    expect(db.transactions.map((t) => t.outcome)).toEqual(['committed']);
    expect(ledger.entries.map((e) => e.callId)).toEqual(['a', 'b', 'c']);
    expect(ledger.balance).toEqual({ balanceMins: 7, reservedMins: 0 });
  });

  it('settles a failed batch call by call: each settlement gets its own outcome', async () => {
    ledger.subscribe();
    ledger.grant(10);
    await dispatched('a', 'b', 'c');
    const real = ledger.ledgerRepository();
    ledgerRepository = () =>
      Object.assign(Object.create(real) as MinuteLedgerRepository, {
        append: (...args: Parameters<MinuteLedgerRepository['append']>) =>
          args[2].callId === 'c' ? Promise.reject(new Error('disk full')) : real.append(...args),
      });
    const command = settleCommand();
    const outcomes = await Promise.allSettled([
      command.execute(outbound('a', 60)),
      command.execute(outbound('b', 60)),
      command.execute(outbound('c', 60)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    // a, b and c together (rolled back); then each alone.
    expect(db.transactions.map((t) => t.outcome)).toEqual(['rolled back', 'committed', 'committed', 'rolled back']);
    expect(ledger.entries.map((e) => e.callId)).toEqual(['a', 'b']);
  });

  it('settles once when a concurrent settlement of the same unreserved call wrote its row first', async () => {
    ledger.subscribe();
    ledger.grant(10);
    const inbound: CallSettlement = { ...outbound('in-1', 60), direction: 'inbound' };
    const real = ledger.ledgerRepository();
    // The other settlement commits between this one's check and its write: the unique call row refuses it.
    ledgerRepository = () =>
      Object.assign(Object.create(real) as MinuteLedgerRepository, {
        callsWithEntry: () => Promise.resolve(new Set<string>()),
      });
    await settleCommand().execute(inbound);
    await expect(settleCommand().execute(inbound)).resolves.toBeUndefined();
    expect(ledger.entries).toHaveLength(1);
  });
});
