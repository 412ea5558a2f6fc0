import {
  GrantState,
  addMonths,
  applyReservation,
  applySettlement,
  availableMins,
  consumptionOrder,
  daysRemaining,
  planClose,
  planReservation,
  planSettlement,
  startedMinutes,
  talkMinutes,
} from './allocation';

const NOW = 1_000_000;
const g = (over: Partial<GrantState> & Pick<GrantState, 'id'>): GrantState => ({
  kind: 'included',
  remainingMins: 10,
  reservedMins: 0,
  expiresAt: NOW + 1000,
  grantedAt: NOW - 1000,
  closed: false,
  ...over,
});

describe('per-started-minute billing (docs/contracts/conventions.md)', () => {
  it.each([
    [null, 0, 0],
    [0, 0, 0],
    [1, 1, 0.02],
    [59, 1, 0.98],
    [60, 1, 1],
    [61, 2, 1.02],
    [150, 3, 2.5],
  ])('%p seconds -> %p started minutes, %p talk minutes', (seconds, started, talk) => {
    expect(startedMinutes(seconds)).toBe(started);
    expect(talkMinutes(seconds)).toBe(talk);
  });
});

describe('consumption order: earliest-expiring included minutes first, then top-ups', () => {
  it.each<[string, GrantState[], string[]]>([
    [
      'two included grants by expiry',
      [g({ id: 'late', expiresAt: NOW + 900 }), g({ id: 'early', expiresAt: NOW + 100 })],
      ['early', 'late'],
    ],
    [
      'top-ups after every included grant, oldest top-up first',
      [
        g({ id: 'top2', kind: 'topup', expiresAt: null, grantedAt: 5 }),
        g({ id: 'top1', kind: 'topup', expiresAt: null, grantedAt: 1 }),
        g({ id: 'inc', expiresAt: NOW + 5000 }),
      ],
      ['inc', 'top1', 'top2'],
    ],
    [
      'trial minutes expire, so they go before top-ups',
      [g({ id: 'top', kind: 'topup', expiresAt: null }), g({ id: 'trial', kind: 'trial' })],
      ['trial', 'top'],
    ],
    [
      'open-ended included minutes after expiring ones, before top-ups',
      [g({ id: 'top', kind: 'topup', expiresAt: null }), g({ id: 'open', expiresAt: null }), g({ id: 'inc' })],
      ['inc', 'open', 'top'],
    ],
  ])('%s', (_name, grants, order) => {
    expect(consumptionOrder(grants).map((x) => x.id)).toEqual(order);
  });
});

describe('reservations: one billable minute per dispatch', () => {
  it.each<[string, GrantState[], string | null]>([
    ['from the included grant first', [g({ id: 'top', kind: 'topup', expiresAt: null }), g({ id: 'inc' })], 'inc'],
    [
      'from a top-up when included minutes are all held',
      [g({ id: 'inc', remainingMins: 2, reservedMins: 2 }), g({ id: 'top', kind: 'topup', expiresAt: null })],
      'top',
    ],
    ['never from an expired grant', [g({ id: 'old', expiresAt: NOW - 1 })], null],
    ['never from a closed grant', [g({ id: 'closed', closed: true })], null],
    ['nothing when every minute is held', [g({ id: 'inc', remainingMins: 3, reservedMins: 3 })], null],
  ])('%s', (_name, grants, from) => {
    const plan = planReservation(grants, NOW, 1);
    expect(plan === null ? null : plan[0].grantId).toBe(from);
    if (plan) expect(plan).toEqual([{ grantId: from, mins: 1 }]);
  });

  it('K free minutes admit exactly K reservations', () => {
    let grants = [
      g({ id: 'inc', remainingMins: 3 }),
      g({ id: 'top', kind: 'topup', expiresAt: null, remainingMins: 2 }),
    ];
    let admitted = 0;
    for (let i = 0; i < 20; i++) {
      const plan = planReservation(grants, NOW);
      if (!plan) continue;
      admitted++;
      grants = applyReservation(grants, plan);
    }
    expect(admitted).toBe(5);
    expect(availableMins(grants, NOW)).toBe(0);
  });
});

describe('settlement replaces the reservation with the started minutes', () => {
  const reservedOn = (grants: GrantState[], id: string) => ({
    grants: applyReservation(grants, [{ grantId: id, mins: 1 }]),
    reservation: {
      allocations: [{ grantId: id, mins: 1 }],
      reservedAt: NOW - 10,
    },
  });

  it.each<
    [
      string,
      GrantState[],
      number,
      {
        charged: number;
        excess: number;
        expired: number;
        remaining: Record<string, number>;
      },
    ]
  >([
    [
      'a 3-minute call uses its reserved minute and 2 more',
      [g({ id: 'inc' })],
      3,
      { charged: 3, excess: 0, expired: 0, remaining: { inc: 7 } },
    ],
    [
      'an unanswered call releases the reservation',
      [g({ id: 'inc' })],
      0,
      { charged: 0, excess: 0, expired: 0, remaining: { inc: 10 } },
    ],
    [
      'spills from included minutes into top-ups',
      [g({ id: 'inc', remainingMins: 2 }), g({ id: 'top', kind: 'topup', expiresAt: null, remainingMins: 5 })],
      4,
      { charged: 4, excess: 0, expired: 0, remaining: { inc: 0, top: 3 } },
    ],
    [
      'finishing past the allowance records excess, never a debt',
      [g({ id: 'inc', remainingMins: 2 })],
      5,
      { charged: 2, excess: 3, expired: 0, remaining: { inc: 0 } },
    ],
  ])('%s', (_name, initial, started, expected) => {
    const { grants, reservation } = reservedOn(initial, 'inc');
    const plan = planSettlement({
      grants,
      reservation,
      startedMins: started,
      covered: false,
      now: NOW,
    });
    const after = applySettlement(grants, reservation, plan);
    expect({
      charged: plan.chargedMins,
      excess: plan.excessMins,
      expired: plan.expiredMins,
    }).toEqual({
      charged: expected.charged,
      excess: expected.excess,
      expired: expected.expired,
    });
    expect(Object.fromEntries(after.map((x) => [x.id, x.remainingMins]))).toEqual(expected.remaining);
    expect(after.every((x) => x.reservedMins === 0)).toBe(true);
  });

  it('a late completion is attributed to its original allocation, not the next period', () => {
    // Reserved in period 1; the renewal closed period 1 (keeping the held minute) and granted period 2.
    const old = planClose(applyReservation([g({ id: 'p1', remainingMins: 4 })], [{ grantId: 'p1', mins: 1 }])[0]);
    expect(old.expiredMins).toBe(3);
    const grants = [old.after, g({ id: 'p2', remainingMins: 300, grantedAt: NOW - 5 })];
    const reservation = {
      allocations: [{ grantId: 'p1', mins: 1 }],
      reservedAt: NOW - 10,
    };
    const plan = planSettlement({
      grants,
      reservation,
      startedMins: 4,
      covered: false,
      now: NOW,
    });
    expect(plan).toMatchObject({
      chargedMins: 1,
      excessMins: 3,
      expiredMins: 0,
    });
    expect(applySettlement(grants, reservation, plan).find((x) => x.id === 'p2')?.remainingMins).toBe(300);
  });

  it('a late call that never connected lets its held minute of a closed period expire', () => {
    const closed = g({
      id: 'p1',
      remainingMins: 1,
      reservedMins: 1,
      closed: true,
    });
    const reservation = {
      allocations: [{ grantId: 'p1', mins: 1 }],
      reservedAt: NOW - 10,
    };
    const plan = planSettlement({
      grants: [closed],
      reservation,
      startedMins: 0,
      covered: false,
      now: NOW,
    });
    expect(plan).toMatchObject({
      chargedMins: 0,
      expiredMins: 1,
      excessMins: 0,
    });
    expect(applySettlement([closed], reservation, plan)[0]).toMatchObject({
      remainingMins: 0,
      reservedMins: 0,
    });
  });

  it('a top-up bought after the call was reserved is not drawn by that call', () => {
    const grants = applyReservation(
      [g({ id: 'inc', remainingMins: 1 }), g({ id: 'top', kind: 'topup', expiresAt: null, grantedAt: NOW - 1 })],
      [{ grantId: 'inc', mins: 1 }],
    );
    const reservation = {
      allocations: [{ grantId: 'inc', mins: 1 }],
      reservedAt: NOW - 10,
    };
    const plan = planSettlement({
      grants,
      reservation,
      startedMins: 3,
      covered: false,
      now: NOW,
    });
    expect(plan).toMatchObject({ chargedMins: 1, excessMins: 2 });
  });

  it.each([
    ['receptionist covers an inbound call', null],
    ['complimentary covers an outbound call', { allocations: [{ grantId: 'inc', mins: 1 }], reservedAt: NOW - 10 }],
  ])('%s: nothing charged, the reservation released', (_name, reservation) => {
    const grants = reservation ? applyReservation([g({ id: 'inc' })], reservation.allocations) : [g({ id: 'inc' })];
    const plan = planSettlement({
      grants,
      reservation,
      startedMins: 7,
      covered: true,
      now: NOW,
    });
    expect(plan).toMatchObject({
      chargedMins: 0,
      excessMins: 0,
      expiredMins: 0,
    });
    expect(applySettlement(grants, reservation, plan)[0]).toMatchObject({
      remainingMins: 10,
      reservedMins: 0,
    });
  });

  it('an inbound call without reservation draws straight from the balance', () => {
    const plan = planSettlement({
      grants: [g({ id: 'inc', remainingMins: 2 })],
      reservation: null,
      startedMins: 3,
      covered: false,
      now: NOW,
    });
    expect(plan).toMatchObject({ chargedMins: 2, excessMins: 1 });
  });
});

describe('renewal', () => {
  it.each([
    ['expires every unspent minute', 40, 0, 40],
    ['keeps the minutes held by calls in flight', 40, 3, 37],
    ['expires nothing when everything was spent', 0, 0, 0],
  ])('%s', (_name, remaining, reserved, expired) => {
    const closed = planClose(g({ id: 'p1', remainingMins: remaining, reservedMins: reserved }));
    expect(closed.expiredMins).toBe(expired);
    expect(closed.after).toMatchObject({
      closed: true,
      remainingMins: reserved,
      reservedMins: reserved,
    });
  });

  it.each([
    ['2026-01-15T00:00:00.000Z', '2026-02-15T00:00:00.000Z'],
    ['2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['2026-12-31T00:00:00.000Z', '2027-01-31T00:00:00.000Z'],
  ])('a period from %s ends %s', (start, end) => {
    expect(addMonths(new Date(start), 1).toISOString()).toBe(end);
  });

  it.each([
    [null, null],
    [NOW - 1, 0],
    [NOW + 1, 1],
    [NOW + 86_400_000, 1],
    [NOW + 86_400_001, 2],
  ])('days remaining until %p is %p (rounded up, floored at 0)', (end, days) => {
    expect(daysRemaining(end === null ? null : new Date(end), NOW)).toBe(days);
  });
});
