import { callingOrg } from '../calls/call-fixtures';
import { createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** The console's backend: the session exchange and the admin reads, over HTTP like the browser. */
describe('console API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function signIn(): Promise<{ cookie: string; csrf: string; setCookie: string }> {
    const res = await t.anonymous.post('/admin/v1/session', { token: ADMIN_TOKEN });
    expect(res.status).toBe(201);
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0], csrf: res.body.data.csrfToken, setCookie };
  }

  it('refuses a wrong admin token and sets no cookie', async () => {
    const res = await t.anonymous.post('/admin/v1/session', { token: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('counts wrong admin tokens against the address: 429 past the budget, the right token still signs in', async () => {
    // The peer shares this file's rate-limit store, where the test above already spent one failure.
    const peer = await t.startPeer({ ROLES: 'api', AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
    const anonymous = new HttpClient(peer.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await anonymous.post('/admin/v1/session', { token: 'wrong' })).status);
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    const limited = await anonymous.post('/admin/v1/session', { token: 'wrong' });
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await anonymous.post('/admin/v1/session', { token: ADMIN_TOKEN })).status).toBe(201);
  });

  it('issues an HttpOnly, SameSite=Strict, Secure cookie that opens the admin reads', async () => {
    const { cookie, setCookie } = await signIn();
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Path=\/admin\/v1/);
    const session = new HttpClient(t.baseUrl, { cookie });
    expect((await session.get('/admin/v1/session')).status).toBe(200);
    const list = await session.get('/admin/v1/organizations');
    expect(list.status).toBe(200);
    // Only the hash is stored: the cookie's token is not in the table.
    const { rows } = await t.db.query('SELECT token_hash FROM console_sessions');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.toString('base64url') === cookie.split('=')[1])).toBe(false);
  });

  it('requires the CSRF header on unsafe methods, and accepts the right one', async () => {
    const { cookie, csrf } = await signIn();
    const org = await createOrg(t);
    const session = new HttpClient(t.baseUrl, { cookie });
    const body = { to: '+14155550101', from: '+14155550100' };
    const without = await session.post(`/admin/v1/organizations/${org.id}/test-calls`, body);
    expect(without.status).toBe(401);
    const wrong = await session.post(`/admin/v1/organizations/${org.id}/test-calls`, body, {
      headers: { 'x-console-csrf': 'x' },
    });
    expect(wrong.status).toBe(401);
    // Past the session and CSRF checks, the call's own rules answer (no plan yet: 422 or 402 from the ledger).
    const right = await session.post(`/admin/v1/organizations/${org.id}/test-calls`, body, {
      headers: { 'x-console-csrf': csrf },
    });
    expect(right.status).not.toBe(401);
  });

  it('revokes the session on sign-out, so the same cookie is refused', async () => {
    const { cookie, csrf } = await signIn();
    const session = new HttpClient(t.baseUrl, { cookie });
    const out = await session.delete('/admin/v1/session', { headers: { 'x-console-csrf': csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await session.get('/admin/v1/organizations')).status).toBe(401);
    expect((await session.get('/admin/v1/session')).status).toBe(401);
  });

  it('gives an API key no way into the admin routes, even of its own organization', async () => {
    const org = await createOrg(t);
    const res = await org.api.get(`/admin/v1/organizations/${org.id}/calls`);
    expect(res.status).toBe(401);
  });

  it('lists keys with their last use, and answers 404 for an unknown organization', async () => {
    const org = await createOrg(t);
    expect((await org.api.get('/api/v1/calls')).status).toBe(200);
    // The use is stamped off the request path (ApiKeysService.touch): it lands shortly after the response.
    const keys = await waitUntil("the key's last use stamped", async () => {
      const res = await t.admin.get(`/admin/v1/organizations/${org.id}/api-keys`);
      return res.status !== 200 || res.body.data[0].lastUsedAt !== null ? res : undefined;
    });
    expect(keys.status).toBe(200);
    expect(keys.body.data[0].lastUsedAt).not.toBeNull();
    expect(keys.body.data[0]).not.toHaveProperty('key');
    const missing = await t.admin.get('/admin/v1/organizations/00000000-0000-7000-8000-000000000000/calls');
    expect(missing.status).toBe(404);
  });

  it("keeps each organization's rows apart: another organization's call is 404", async () => {
    const a = await callingOrg(t);
    const b = await createOrg(t);
    const call = await t.admin.post(`/admin/v1/organizations/${a.id}/test-calls`, { to: '+14155550101', from: a.from });
    expect(call.status).toBe(201);
    // The console's test-call button places a test call: it is in the test world (the Test / Live switch).
    const path = (org: string) => `/admin/v1/organizations/${org}/calls/${call.body.data.id}?livemode=false`;
    expect((await t.admin.get(path(a.id))).status).toBe(200);
    expect((await t.admin.get(path(b.id))).status).toBe(404);
    const overview = await t.admin.get(`/admin/v1/organizations/${a.id}/overview?livemode=false`);
    expect(Object.values(overview.body.data.callsByStatus).reduce((n: number, c) => n + (c as number), 0)).toBe(1);
  });

  it('shows one world at a time: the live view never lists or counts a test call, and test is badged', async () => {
    const org = await callingOrg(t);
    const call = await t.admin.post(`/admin/v1/organizations/${org.id}/test-calls`, {
      to: '+14155550102',
      from: org.from,
    });
    expect(call.body.data.livemode).toBe(false);
    const base = `/admin/v1/organizations/${org.id}`;
    expect((await t.admin.get(`${base}/calls/${call.body.data.id}`)).status).toBe(404);
    expect((await t.admin.get(`${base}/calls`)).body.data).toEqual([]);
    expect((await t.admin.get(`${base}/overview`)).body.data.callsByStatus).toEqual({});
    const test = await t.admin.get(`${base}/calls?livemode=false`);
    expect(test.body.data.map((c: any) => [c.id, c.livemode])).toEqual([[call.body.data.id, false]]);
    const bad = await t.admin.get(`${base}/calls?livemode=maybe`);
    expect({ status: bad.status, code: bad.body.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('pauses and resumes a recurring schedule', async () => {
    const org = await createOrg(t);
    const kase = await org.api.post('/api/v1/cases', {
      title: 'Reminder',
      prompt: 'Remind the patient',
      firstMessage: 'Hi',
    });
    const schedule = await t.admin.post(`/admin/v1/organizations/${org.id}/recurring-schedules`, {
      caseId: kase.body.data.id,
    });
    const path = `/admin/v1/organizations/${org.id}/recurring-schedules/${schedule.body.data.id}/status`;
    expect((await t.admin.post(path, { status: 'paused' })).body.data.status).toBe('paused');
    const list = await t.admin.get(`/admin/v1/organizations/${org.id}/automations`);
    expect(list.body.data).toEqual([expect.objectContaining({ id: schedule.body.data.id, status: 'paused' })]);
    expect((await t.admin.post(path, { status: 'bogus' })).status).toBe(400);
  });

  it("opens an endpoint's delivery log and test ping through the webhook operations; another organization's is 404", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const hook = await a.api.post('/api/v1/webhooks', { url: 'https://hooks.acme.example/v', events: ['call.ended'] });
    const own = `/admin/v1/organizations/${a.id}/webhooks/${hook.body.data.id}`;
    const log = await t.admin.get(`${own}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ data: [], pagination: expect.objectContaining({ hasMore: false }) });
    expect((await t.admin.get(`${own}/deliveries?limit=101`)).status).toBe(400);
    const unknown = await t.admin.post(`${own}/deliveries/00000000-0000-7000-8000-000000000000/retry`);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const other = `/admin/v1/organizations/${b.id}/webhooks/${hook.body.data.id}`;
    for (const res of [await t.admin.get(`${other}/deliveries`), await t.admin.post(`${other}/test`)]) {
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('lists campaigns with progress and the moves they allow, and moves them by the public state machine', async () => {
    const org = await callingOrg(t);
    const other = await createOrg(t);
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'Recall',
      from: org.from,
      audience: { rows: [{ to: '+14155550121' }, { to: '+14155550122' }] },
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const base = `/admin/v1/organizations/${org.id}/campaigns`;
    const list = await t.admin.get(base);
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: created.body.data.id, status: 'draft', actions: ['start', 'cancel'] }),
    ]);
    expect(list.body.data[0].counts).toEqual({ total: 2, pending: 2, inProgress: 0, done: 0, skipped: 0 });
    const one = `${base}/${created.body.data.id}`;
    expect((await t.admin.post(`${one}/start`)).body.data).toMatchObject({
      status: 'scheduled',
      actions: ['pause', 'cancel'],
    });
    expect((await t.admin.post(`${one}/pause`)).body.data).toMatchObject({
      status: 'paused',
      actions: ['resume', 'cancel'],
    });
    const again = await t.admin.post(`${one}/pause`);
    expect([again.status, again.body.error.code]).toEqual([422, 'INVALID_STATE']);
    expect((await org.api.get(`/api/v1/campaigns/${created.body.data.id}`)).body.data.status).toBe('paused');
    const foreign = await t.admin.post(`/admin/v1/organizations/${other.id}/campaigns/${created.body.data.id}/resume`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('creates a campaign in the chosen world with the public rules, and reads it and its entries there only', async () => {
    const org = await callingOrg(t);
    const other = await createOrg(t);
    const base = `/admin/v1/organizations/${org.id}/campaigns`;
    const body = {
      name: 'Console recall',
      from: org.from,
      maxConcurrent: 2,
      audience: { rows: [{ to: '+1 415 555 0141', variableValues: { name: 'Ada' } }, { to: '+14155550142' }] },
      startAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const bad = await t.admin.post(`${base}?livemode=false`, {
      ...body,
      audience: { rows: [{ to: '+1 555' }] },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(bad.body.error.message).toContain('E.164');
    const notOurs = await t.admin.post(`${base}?livemode=false`, { ...body, from: '+14155559999' });
    expect([notOurs.status, notOurs.body.error.code]).toEqual([422, 'INVALID_PHONE']);
    const created = await t.admin.post(`${base}?livemode=false`, body);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      status: 'draft',
      livemode: false,
      maxConcurrent: 2,
      audience: { rowCount: 2 },
      actions: ['start', 'cancel'],
    });
    const id = created.body.data.id;
    expect((await t.admin.get(`${base}/${id}?livemode=false`)).body.data).toMatchObject({ id, livemode: false });
    const first = await t.admin.get(`${base}/${id}/entries?livemode=false&limit=1`);
    expect(first.body.pagination.hasMore).toBe(true);
    const cursor = encodeURIComponent(first.body.pagination.cursor);
    const second = await t.admin.get(`${base}/${id}/entries?livemode=false&limit=1&cursor=${cursor}`);
    const entries = [...first.body.data, ...second.body.data];
    // Normalised to E.164 like the public route; nothing called yet.
    expect(entries.map((e: { to: string }) => e.to).sort()).toEqual(['+14155550141', '+14155550142']);
    expect(
      entries.every((e: { status: string; attempts: unknown[] }) => e.status === 'pending' && e.attempts.length === 0),
    ).toBe(true);
    // The live world, another organization and the live key do not see it.
    for (const res of [
      await t.admin.get(`${base}/${id}`),
      await t.admin.get(`${base}/${id}/entries`),
      await t.admin.get(`/admin/v1/organizations/${other.id}/campaigns/${id}?livemode=false`),
      await t.admin.get(`/admin/v1/organizations/${other.id}/campaigns/${id}/entries?livemode=false`),
      await org.api.get(`/api/v1/campaigns/${id}`),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('keeps the do-not-call ledger, webhook creation and replies to their world and organization', async () => {
    const org = await callingOrg(t);
    const other = await createOrg(t);
    const base = `/admin/v1/organizations/${org.id}`;
    const listed = await t.admin.post(`${base}/do-not-call?livemode=false`, { number: '+1 415 555 0161' });
    expect([listed.status, listed.body.data]).toEqual([
      201,
      expect.objectContaining({ number: '+14155550161', source: 'console', livemode: false }),
    ]);
    expect((await t.admin.post(`${base}/do-not-call?livemode=false`, { number: '+14155550161' })).status).toBe(200);
    const bad = await t.admin.post(`${base}/do-not-call`, { number: '555' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    // The live world's ledger and the live key do not see the test listing.
    expect((await t.admin.get(`${base}/do-not-call`)).body.data).toEqual([]);
    expect((await org.api.get('/api/v1/do-not-call')).body.data).toEqual([]);
    const foreign = await t.admin.delete(
      `/admin/v1/organizations/${other.id}/do-not-call/%2B14155550161?livemode=false`,
    );
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await t.admin.delete(`${base}/do-not-call/%2B14155550161?livemode=false`)).status).toBe(204);
    expect((await t.admin.get(`${base}/do-not-call?livemode=false`)).body.data).toEqual([]);

    const contact = await t.admin.post(`${base}/contacts?livemode=false`, { title: 'Tess', phone: '+1 415 555 0163' });
    expect([contact.status, contact.body.data]).toEqual([
      201,
      expect.objectContaining({ phone: '+14155550163', livemode: false }),
    ]);
    const noPhone = await t.admin.post(`${base}/contacts`, { title: 'No phone' });
    expect([noPhone.status, noPhone.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await org.api.get('/api/v1/contacts')).body.data).toEqual([]);

    const hook = await t.admin.post(`${base}/webhooks?livemode=false`, {
      url: 'https://example.com/hooks',
      events: ['call.ended'],
    });
    expect(hook.status).toBe(201);
    expect(hook.body.data).toMatchObject({ livemode: false, secret: expect.any(String) });
    const invalid = await t.admin.post(`${base}/webhooks`, { url: 'https://example.com/x', events: ['nope'] });
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await t.admin.get(`${base}/webhooks`)).body.data).toEqual([]);

    const account = await t.admin.post(`${base}/messaging-accounts`, {
      displayPhoneNumber: '+1 415-555-0100',
      verifiedName: 'Acme',
      status: 'active',
    });
    const accountId = account.body.data.id;
    const inbound = await t.admin.post('/admin/v1/simulator/inbound-messages', {
      accountId,
      from: '+14155550162',
      name: 'Ann',
      text: 'Hi',
      timestamp: new Date(Date.now() - 48 * 3600_000).toISOString(),
    });
    const conversationId = inbound.body.data.conversationId;
    const late = await t.admin.post(`${base}/messaging/messages`, { type: 'text', conversationId, text: 'Hello?' });
    expect([late.status, late.body.error.code]).toEqual([422, 'SESSION_EXPIRED']);
    await t.admin.post(`/admin/v1/messaging-accounts/${accountId}/templates`, {
      name: 'hello',
      language: 'en_US',
      status: 'APPROVED',
      body: 'Hello {{1}}',
    });
    const templates = await t.admin.get(`${base}/messaging/accounts/${accountId}/templates`);
    expect(templates.body.data.map((x: { name: string }) => x.name)).toEqual(['hello']);
    const sent = await t.admin.post(`${base}/messaging/messages`, {
      type: 'template',
      conversationId,
      templateName: 'hello',
      templateLanguage: 'en_US',
      variables: { '1': 'Ann' },
    });
    expect(sent.status).toBe(201);
    for (const res of [
      await t.admin.get(`/admin/v1/organizations/${other.id}/messaging/accounts/${accountId}/templates`),
      await t.admin.get(`${base}/messaging/accounts/${accountId}/templates?livemode=false`),
      await t.admin.post(`/admin/v1/organizations/${other.id}/messaging/messages`, {
        type: 'text',
        conversationId,
        text: 'x',
      }),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('finds calls by number, to or from, in the chosen world; a number that is not one is a 400', async () => {
    const org = await callingOrg(t);
    const base = `/admin/v1/organizations/${org.id}/calls`;
    const placed = [];
    for (const to of ['+14155550171', '+14155550172', '+14155550171']) {
      const res = await org.api.post('/api/v1/calls', { to, from: org.from });
      expect(res.status).toBe(201);
      placed.push(res.body.data.id);
    }
    const found = await t.admin.get(`${base}?number=${encodeURIComponent('+1 415-555-0171')}`);
    expect(found.body.data.map((c: { id: string }) => c.id).sort()).toEqual([placed[0], placed[2]].sort());
    const byFrom = await t.admin.get(`${base}?number=${encodeURIComponent(org.from)}&limit=2`);
    expect(byFrom.body.data).toHaveLength(2);
    expect(byFrom.body.pagination.hasMore).toBe(true);
    expect((await t.admin.get(`${base}?number=%2B14155550171&livemode=false`)).body.data).toEqual([]);
    const bad = await t.admin.get(`${base}?number=12345`);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });
});
