import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { ALL_DAYS, rows, utcClock, waitForCampaign } from './campaign-fixtures';

/** A window that opens in two hours (UTC), so nothing is dialled now. */
const closedWindow = () => ({ days: ALL_DAYS, start: utcClock(120), end: utcClock(180), timezone: 'UTC' });

describe('dialer: campaigns API and state machine (docs/contracts/dialer.md)', () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  it('creates a draft (201) with the contract shape; Idempotency-Key replays it', async () => {
    const body = {
      name: 'Reminders',
      from: org.from,
      audience: { rows: rows('+1415558', 3) },
      window: closedWindow(),
      maxConcurrent: 2,
      callsPerMinute: 30,
      retry: { on: ['customer-did-not-answer'], delaySeconds: 60, maxAttempts: 2 },
    };
    const keyed = org.api.withHeaders({ 'idempotency-key': 'campaign-1' });
    const res = await keyed.post('/api/v1/campaigns', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Reminders',
      status: 'draft',
      pausedReason: null,
      from: org.from,
      audience: { groupId: null, contactIds: null, rowCount: 3 },
      maxConcurrent: 2,
      callsPerMinute: 30,
      retry: body.retry,
      counts: { total: 3, pending: 3, inProgress: 0, done: 0, skipped: 0 },
      outcomes: {},
    });
    const again = await keyed.post('/api/v1/campaigns', body);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(res.body.data.id);
    const list = await org.api.get('/api/v1/campaigns');
    expect(list.body.data.map((c: any) => c.id)).toContain(res.body.data.id);
  });

  it('refuses bad input with 400 and foreign references with 404', async () => {
    const base = { name: 'x', from: org.from };
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ ...base, audience: {} }, 400],
      [{ ...base, audience: { rows: rows('+1415558', 1), contactIds: [] } }, 400],
      [{ ...base, audience: { rows: [{ to: 'nope' }] } }, 400],
      [{ ...base, audience: { rows: rows('+1415558', 1) }, window: { ...closedWindow(), timezone: 'Mars/Base' } }, 400],
      [{ ...base, audience: { rows: rows('+1415558', 1) }, window: { ...closedWindow(), start: '25:00' } }, 400],
      [
        { ...base, audience: { rows: rows('+1415558', 1) }, retry: { on: ['x'], delaySeconds: 1, maxAttempts: 2 } },
        400,
      ],
      [{ ...base, audience: { rows: rows('+1415558', 1) }, maxConcurrent: 101 }, 400],
      [{ ...base, audience: { groupId: '00000000-0000-7000-8000-000000000000' } }, 404],
      [{ ...base, audience: { contactIds: ['00000000-0000-7000-8000-000000000000'] } }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await org.api.post('/api/v1/campaigns', body);
      expect({ body, status: res.status }).toEqual({ body, status });
    }
    expect(
      (
        await org.api.post('/api/v1/campaigns', {
          ...base,
          from: '+14155559999',
          audience: { rows: rows('+1415558', 1) },
        })
      ).status,
    ).toBe(422);
    const other = await callingOrg(t);
    const mine = await org.api.post('/api/v1/campaigns', { ...base, audience: { rows: rows('+1415558', 1) } });
    expect((await other.api.get(`/api/v1/campaigns/${mine.body.data.id}`)).status).toBe(404);
    expect((await other.api.post(`/api/v1/campaigns/${mine.body.data.id}/start`)).status).toBe(404);
  });

  it('accepts 10,000 rows and refuses 10,001', async () => {
    const ok = await org.api.post('/api/v1/campaigns', {
      name: 'big',
      from: org.from,
      audience: { rows: rows('+14155', 10_000, () => 0) },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.counts.total).toBe(10_000);
    const tooMany = await org.api.post('/api/v1/campaigns', {
      name: 'big',
      from: org.from,
      audience: { rows: rows('+14155', 10_001, () => 0) },
    });
    expect(tooMany.status).toBe(400);
  });

  it('moves draft -> running <-> paused -> cancelled; forbidden moves are 422 INVALID_STATE', async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'moves',
      from: org.from,
      audience: { rows: rows('+1415557', 2) },
      window: closedWindow(),
    });
    const id = created.body.data.id;
    const move = (action: string) => org.api.post(`/api/v1/campaigns/${id}/${action}`);
    const refused = await move('pause');
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    expect((await move('start')).body.data.status).toBe('running');
    expect((await move('start')).status).toBe(422);
    expect((await move('pause')).body.data).toMatchObject({ status: 'paused', pausedReason: null });
    expect((await move('resume')).body.data.status).toBe('running');
    expect((await move('cancel')).body.data.status).toBe('cancelled');
    expect((await move('resume')).status).toBe(422);
    expect((await move('cancel')).status).toBe(422);

    const { rows: events } = await t.db.query(
      `SELECT type FROM outbox_events WHERE data->>'campaignId' = $1 ORDER BY occurred_at, id`,
      [id],
    );
    expect(events.map((e) => e.type)).toEqual(['campaign.started', 'campaign.paused']);
    const { rows: calls } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1`, [id]);
    expect(calls[0].n).toBe(0);
  });

  it('a campaign with a future startAt is scheduled, then runs by itself', async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'later',
      from: org.from,
      audience: { rows: rows('+1415556', 1, () => 0) },
      startAt: new Date(Date.now() + 1500).toISOString(),
    });
    const started = await org.api.post(`/api/v1/campaigns/${created.body.data.id}/start`);
    expect(started.body.data.status).toBe('scheduled');
    const done = await waitForCampaign(org, created.body.data.id, (c) => c.status === 'completed', 20_000);
    expect(done.outcomes).toEqual({ 'customer-ended-call': 1 });
  });
});
