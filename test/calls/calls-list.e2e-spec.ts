import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, finished, insertCase, insertContact, waitForCall } from './call-fixtures';

describe('calls: list filters and pagination', () => {
  let t: TestApp;
  let org: CallsOrg;
  let contactId: string;
  let caseId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
    contactId = await insertContact(org, { title: 'Ada', phone: '+14155550111' });
    caseId = await insertCase(t, org, { prompt: 'p' });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const post = async (body: Record<string, unknown>) =>
      (await org.api.post('/api/v1/calls', { to: '+14155550123', from: org.from, ...body })).body.data.id as string;
    ids.ended = await post({ contactId });
    ids.scheduled = await post({ scheduledAt: later, caseId });
    ids.cancelled = await post({ scheduledAt: later, contactId, caseId });
    expect((await org.api.delete(`/api/v1/calls/${ids.cancelled}`)).status).toBe(204);
    ids.failed = await post({ to: '+14155550129' });
    for (const id of [ids.ended, ids.failed]) await waitForCall(org, id, finished);
  });
  afterAll(() => t?.close());

  const list = async (query: Record<string, string | number> = {}) => {
    const res = await org.api.get('/api/v1/calls', { query });
    expect(res.status).toBe(200);
    return res.body;
  };
  const idsOf = (body: any) => body.data.map((c: any) => c.id);

  it('lists newest first with pagination metadata and without transcripts', async () => {
    const body = await list();
    expect(idsOf(body)).toEqual([ids.failed, ids.cancelled, ids.scheduled, ids.ended]);
    expect(body.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 25 });
    expect(body.data[0]).not.toHaveProperty('transcript');
    expect(body.data[0]).not.toHaveProperty('systemPrompt');
  });

  it.each([
    ['status=ended', { status: 'ended' }, ['ended']],
    ['status=error', { status: 'error' }, ['failed']],
    ['status=scheduled', { status: 'scheduled' }, ['scheduled']],
    ['status=cancelled', { status: 'cancelled' }, ['cancelled']],
    ['status=new', { status: 'new' }, []],
    ['contactId', () => ({ contactId }), ['cancelled', 'ended']],
    ['caseId', () => ({ caseId }), ['cancelled', 'scheduled']],
    ['contactId and caseId', () => ({ contactId, caseId }), ['cancelled']],
  ])('filters by %s', async (_, query, expected) => {
    const q = typeof query === 'function' ? query() : query;
    expect(idsOf(await list(q))).toEqual((expected as string[]).map((k) => ids[k]));
  });

  it('filters by creation time with from and to', async () => {
    const all = (await list()).data;
    const pivot = all.find((c: any) => c.id === ids.scheduled).createdAt;
    expect(idsOf(await list({ from: pivot }))).toEqual([ids.failed, ids.cancelled, ids.scheduled]);
    expect(idsOf(await list({ to: pivot }))).toEqual([ids.ended]);
    expect(idsOf(await list({ from: new Date(Date.now() + 60_000).toISOString() }))).toEqual([]);
  });

  it('shows a call claimed for dispatch (internal lock-processing) as not yet dispatched', async () => {
    // Simulates a worker holding the claim: the internal status is not a public one.
    await t.db.query(`UPDATE calls SET status = 'lock-processing' WHERE id = $1`, [ids.scheduled]);
    try {
      expect((await org.api.get(`/api/v1/calls/${ids.scheduled}`)).body.data.status).toBe('scheduled');
      expect(idsOf(await list({ status: 'scheduled' }))).toEqual([ids.scheduled]);
      const del = await org.api.delete(`/api/v1/calls/${ids.scheduled}`);
      expect(del.status).toBe(422);
    } finally {
      await t.db.query(`UPDATE calls SET status = 'scheduled' WHERE id = $1`, [ids.scheduled]);
    }
  });

  it('pages with a cursor, and a cursor is bound to its filter set', async () => {
    const first = await list({ limit: 3 });
    expect(idsOf(first)).toEqual([ids.failed, ids.cancelled, ids.scheduled]);
    expect(first.pagination).toMatchObject({ hasMore: true, pageSize: 3 });
    const second = await list({ limit: 3, cursor: first.pagination.cursor });
    expect(idsOf(second)).toEqual([ids.ended]);
    expect(second.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 3 });
    const reused = await org.api.get('/api/v1/calls', {
      query: { limit: 3, cursor: first.pagination.cursor, status: 'ended' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('INVALID_CURSOR');
  });

  it.each([
    ['status', { status: 'lock-processing' }],
    ['limit', { limit: 0 }],
    ['from', { from: 'yesterday' }],
    ['contactId', { contactId: 'x' }],
  ])('rejects a bad %s with 400', async (field, query) => {
    const res = await org.api.get('/api/v1/calls', { query });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  it("never lists another organization's calls", async () => {
    const other = await callingOrg(t);
    expect((await other.api.get('/api/v1/calls')).body.data).toEqual([]);
  });
});
