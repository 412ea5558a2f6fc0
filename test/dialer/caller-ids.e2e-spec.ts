import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { allEntries, startCampaign, waitForCampaign } from './campaign-fixtures';

/**
 * A campaign spread over several caller IDs (docs/number-health.md): local presence by area code, a daily cap per
 * number counted across the organization's calls, and the DAILY_NUMBER_CAP pause when every number is full.
 */
describe('campaigns over several numbers', () => {
  let t: TestApp;
  let org: CallsOrg;
  const suffix = String(process.pid % 10_000).padStart(4, '0');
  const numbers = { '415': `+1415777${suffix}`, '212': `+1212777${suffix}`, '312': `+1312777${suffix}` };
  const fromNumbers = Object.values(numbers);

  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '10', SIMULATOR_CALL_MS: '50' } });
    org = await callingOrg(t);
    for (const number of fromNumbers) {
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => t?.close());

  const rowsIn = (area: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ to: `+1${area}555${String(1000 + i * 10).padStart(4, '0')}` }));

  it('3 numbers with a cap of 4: each call from the number of its area code, none past the cap, then DAILY_NUMBER_CAP', async () => {
    const rows = [...rowsIn('415', 4), ...rowsIn('212', 4), ...rowsIn('312', 4)];
    const id = await startCampaign(org, {
      from: undefined,
      fromNumbers,
      maxCallsPerNumberPerDay: 4,
      audience: { rows },
    });
    const campaign = await waitForCampaign(org, id, (c) => c.status === 'completed');
    expect(campaign).toMatchObject({ fromNumbers, maxCallsPerNumberPerDay: 4, from: fromNumbers[0] });

    const perNumber = new Map<string, number>();
    for (const entry of await allEntries(org, id)) {
      const call = await waitForCall(org, entry.attempts[0].callId, finished);
      expect({ to: call.callTo, from: call.callFrom }).toEqual({
        to: entry.to,
        from: numbers[entry.to.slice(2, 5) as '415'],
      });
      perNumber.set(call.callFrom, (perNumber.get(call.callFrom) ?? 0) + 1);
    }
    expect(Object.fromEntries(perNumber)).toEqual(Object.fromEntries(fromNumbers.map((n) => [n, 4])));

    // Every number placed its 4 calls today: another campaign over them pauses at once, placing nothing.
    const next = await startCampaign(org, {
      from: undefined,
      fromNumbers,
      maxCallsPerNumberPerDay: 4,
      audience: { rows: rowsIn('415', 2).map((r) => ({ to: r.to.replace('555', '556') })) },
    });
    const paused = await waitForCampaign(org, next, (c) => c.status === 'paused');
    expect(paused.pausedReason).toBe('DAILY_NUMBER_CAP');
    expect(paused.counts).toMatchObject({ pending: 2, inProgress: 0, done: 0 });
    const calls = await org.api.get(`/api/v1/calls?limit=100`);
    expect(calls.body.data.filter((c: any) => fromNumbers.includes(c.callFrom))).toHaveLength(12);
  }, 60_000);

  it('bounds: from or fromNumbers, 1-50 of the organization numbers, a cap of 1-1,000', async () => {
    const audience = { rows: rowsIn('415', 1) };
    const post = (body: Record<string, unknown>) => org.api.post('/api/v1/campaigns', { name: 'c', audience, ...body });
    expect((await post({ from: org.from, fromNumbers })).status).toBe(400);
    expect((await post({ fromNumbers: [] })).status).toBe(400);
    const many = Array.from({ length: 51 }, (_, i) => `+1415888${String(i).padStart(4, '0')}`);
    expect((await post({ fromNumbers: many })).status).toBe(400);
    const foreign = await post({ fromNumbers: [numbers['415'], '+14158880000'] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toContain('fromNumbers[1]');
    expect((await post({ fromNumbers, maxCallsPerNumberPerDay: 0 })).status).toBe(400);
    expect((await post({ fromNumbers, maxCallsPerNumberPerDay: 1001 })).status).toBe(400);
    expect((await post({ fromNumbers, maxCallsPerNumberPerDay: 1000 })).status).toBe(201);
    expect((await post({ from: org.from, maxCallsPerNumberPerDay: 1 })).status).toBe(201);
  });
});
