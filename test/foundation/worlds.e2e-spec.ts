import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';

/**
 * Test and live are two worlds inside one organization (README: "Test and live"): a `test` key never sees or
 * changes live state, a live key never sees test state, the other world's records are 404 NOT_FOUND, and a
 * webhook endpoint receives only its own world's events, each carrying a top-level `livemode`.
 */
describe('worlds: a test key and a live key of one organization', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let org: CallsOrg;
  let testKey: HttpClient;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,200,300' } });
    org = await callingOrg(t);
    testKey = (await org.keyWith(['*'], { environment: 'test' })).api;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const expectNotFound = (res: { status: number; body: any }) =>
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });

  it('a test key gets 404 on a live campaign and on each of its moves; the campaign does not move', async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'Live outreach',
      from: org.from,
      audience: { rows: [{ to: '+14155550131' }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.livemode).toBe(true);
    const id = created.body.data.id;
    expectNotFound(await testKey.get(`/api/v1/campaigns/${id}`));
    expectNotFound(await testKey.get(`/api/v1/campaigns/${id}/entries`));
    for (const move of ['start', 'pause', 'resume', 'cancel']) {
      expectNotFound(await testKey.post(`/api/v1/campaigns/${id}/${move}`));
    }
    const list = await testKey.get('/api/v1/campaigns');
    expect(list.body.data.map((c: any) => c.id)).not.toContain(id);
    const after = await org.api.get(`/api/v1/campaigns/${id}`);
    expect(after.body.data).toMatchObject({ status: 'draft', livemode: true });
    const attempts = await t.db.query('SELECT count(*)::int AS n FROM calls WHERE campaign_id = $1', [id]);
    expect(attempts.rows[0].n).toBe(0);
  });

  it('a test key cannot read or lift a live do-not-call listing; the live number stays refused', async () => {
    const number = '+14155550132';
    const listed = await org.api.post('/api/v1/do-not-call', { number, reason: 'Asked' });
    expect(listed.status).toBe(201);
    expect(listed.body.data.livemode).toBe(true);
    const path = `/api/v1/do-not-call/${encodeURIComponent(number)}`;
    expectNotFound(await testKey.get(path));
    expectNotFound(await testKey.delete(path));
    expect((await testKey.get('/api/v1/do-not-call')).body.data).toEqual([]);
    expect((await org.api.get(path)).body.data).toMatchObject({ number, livemode: true });
    const call = await org.api.post('/api/v1/calls', { to: number, from: org.from });
    expect({ status: call.status, code: call.body.error?.code }).toEqual({ status: 422, code: 'DO_NOT_CALL' });
  });

  it('each world has its own ledger: a test listing blocks test calls only, and the live key cannot lift it', async () => {
    const number = '+14155550133';
    const listed = await testKey.post('/api/v1/do-not-call', { number });
    expect(listed.status).toBe(201);
    expect(listed.body.data.livemode).toBe(false);
    const path = `/api/v1/do-not-call/${encodeURIComponent(number)}`;
    expectNotFound(await org.api.get(path));
    expectNotFound(await org.api.delete(path));
    const testCall = await testKey.post('/api/v1/calls', { to: number, from: org.from });
    expect(testCall.body.error?.code).toBe('DO_NOT_CALL');
    const liveCall = await org.api.post('/api/v1/calls', {
      to: number,
      from: org.from,
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(liveCall.status).toBe(201);
    expect(liveCall.body.data.livemode).toBe(true);
    expect((await testKey.delete(path)).status).toBe(204);
  });

  it('a test key gets 404 on a live endpoint, its deliveries, retry, test and recover; none is sent', async () => {
    const created = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/ops`, events: ['contact.created'] });
    expect(created.status).toBe(201);
    expect(created.body.data.livemode).toBe(true);
    const id = created.body.data.id;
    const ping = await org.api.post(`/api/v1/webhooks/${id}/test`);
    expect(ping.status).toBe(200);
    const deliveryId = ping.body.data.id;
    const sentBefore = receiver.on('/ops').length;
    expectNotFound(await testKey.get(`/api/v1/webhooks/${id}`));
    expectNotFound(await testKey.patch(`/api/v1/webhooks/${id}`, { url: `${receiver.url}/stolen` }));
    expectNotFound(await testKey.post(`/api/v1/webhooks/${id}/rotate-secret`));
    expectNotFound(await testKey.get(`/api/v1/webhooks/${id}/deliveries`));
    expectNotFound(await testKey.get(`/api/v1/webhooks/${id}/deliveries/${deliveryId}`));
    expectNotFound(await testKey.post(`/api/v1/webhooks/${id}/deliveries/${deliveryId}/retry`));
    expectNotFound(await testKey.post(`/api/v1/webhooks/${id}/test`));
    expectNotFound(await testKey.post(`/api/v1/webhooks/${id}/recover`));
    expectNotFound(await testKey.delete(`/api/v1/webhooks/${id}`));
    expect((await testKey.get('/api/v1/webhooks')).body.data.map((e: any) => e.id)).not.toContain(id);
    expect(receiver.on('/ops').length).toBe(sentBefore);
    expect(receiver.on('/stolen')).toEqual([]);
    const still = await org.api.get(`/api/v1/webhooks/${id}`);
    expect(still.body.data).toMatchObject({ url: `${receiver.url}/ops`, livemode: true });
    expect((await org.api.delete(`/api/v1/webhooks/${id}`)).status).toBe(204);
  });

  it('a live receiver never gets a test event and a test receiver never a live one; events carry livemode', async () => {
    const live = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/live`, events: ['contact.created'] });
    const test = await testKey.post('/api/v1/webhooks', { url: `${receiver.url}/test`, events: ['contact.created'] });
    expect([live.body.data.livemode, test.body.data.livemode]).toEqual([true, false]);
    const liveContact = await org.api.post('/api/v1/contacts', { title: 'Live Lee', phone: '+14155550134' });
    // The same phone in the other world is another contact, not a conflict.
    const testContact = await testKey.post('/api/v1/contacts', { title: 'Test Lee', phone: '+14155550134' });
    expect([liveContact.status, testContact.status]).toEqual([201, 201]);
    expect([liveContact.body.data.livemode, testContact.body.data.livemode]).toEqual([true, false]);
    await receiver.waitFor((all) => all.some((r) => r.path === '/live') && all.some((r) => r.path === '/test'));
    // Both events are fanned out (processed) before looking at who got what: the fan-out is what decides.
    const events = await t.db.query(
      `SELECT event_id, livemode FROM outbox_events
        WHERE organization_id = $1 AND type = 'contact.created' AND processed_at IS NOT NULL AND data->>'contactId' = ANY($2)`,
      [org.id, [liveContact.body.data.id, testContact.body.data.id]],
    );
    expect(events.rows).toHaveLength(2);
    const bodies = (path: string) => receiver.on(path).map((r) => JSON.parse(r.rawBody));
    expect(bodies('/live')).toEqual([
      expect.objectContaining({ event: 'contact.created', livemode: true, data: liveContact.body.data }),
    ]);
    expect(bodies('/test')).toEqual([
      expect.objectContaining({ event: 'contact.created', livemode: false, data: testContact.body.data }),
    ]);
    const crossed = await t.db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN outbox_events e ON e.event_id = d.event_id
        WHERE w.organization_id = $1 AND w.livemode <> e.livemode`,
      [org.id],
    );
    expect(crossed.rows[0].n).toBe(0);
    // The test ping of each endpoint is of its own world too.
    const ping = await testKey.post(`/api/v1/webhooks/${test.body.data.id}/test`);
    expect(ping.status).toBe(200);
    await receiver.waitFor((all) => all.filter((r) => r.path === '/test').length === 2);
    expect(bodies('/test')[1]).toMatchObject({ event: 'webhook.test', livemode: false });
  });

  it('contacts, calls and their lists belong to one world; a call cannot use the other world’s contact', async () => {
    const liveContact = await org.api.post('/api/v1/contacts', { title: 'Only Live', phone: '+14155550135' });
    const id = liveContact.body.data.id;
    expectNotFound(await testKey.get(`/api/v1/contacts/${id}`));
    const refused = await testKey.post('/api/v1/calls', { to: '+14155550135', from: org.from, contactId: id });
    expectNotFound(refused);
    const testCall = await testKey.post('/api/v1/calls', { to: '+14155550136', from: org.from });
    expect(testCall.body.data.livemode).toBe(false);
    expectNotFound(await org.api.get(`/api/v1/calls/${testCall.body.data.id}`));
    const liveCalls = (await org.api.get('/api/v1/calls?limit=100')).body.data.map((c: any) => c.id);
    expect(liveCalls).not.toContain(testCall.body.data.id);
    const found = (await testKey.get('/api/v1/contacts/search?q=Only')).body.data;
    expect(found).toEqual([]);
    expect((await org.api.get('/api/v1/contacts/search?q=Only')).body.data.map((c: any) => c.id)).toEqual([id]);
  });

  it("the minute ledger is the live world's: a test key's usage history is empty, its summary the live plan", async () => {
    const live = await org.api.get('/api/v1/usage/history');
    expect(live.body.data.length).toBeGreaterThan(0);
    const test = await testKey.get('/api/v1/usage/history');
    expect(test.status).toBe(200);
    expect(test.body.data).toEqual([]);
    const [liveSummary, testSummary] = await Promise.all([org.api.get('/api/v1/usage'), testKey.get('/api/v1/usage')]);
    expect(testSummary.body.data.balanceMins).toBe(liveSummary.body.data.balanceMins);
  });

  it('an Idempotency-Key used by the live key is not replayed to the test key', async () => {
    const body = { title: 'Idem', phone: '+14155550137' };
    const first = await org.api.post('/api/v1/contacts', body, { headers: { 'idempotency-key': 'same-key' } });
    const other = await testKey.post('/api/v1/contacts', body, { headers: { 'idempotency-key': 'same-key' } });
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(other.body.data.livemode).toBe(false);
  });
});
