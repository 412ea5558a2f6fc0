import { HttpClient } from '../support/http';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const valid = { url: 'https://hooks.example.com/voice', events: ['call.ended'] };

describe('webhook endpoints API', () => {
  let t: TestApp;
  /** The same database served with production URL rules (WEBHOOK_ALLOW_INSECURE off). */
  let strict: (org: TestOrg) => HttpClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,200,300' } });
    const peer = await t.startPeer({ ROLES: 'api', WEBHOOK_ALLOW_INSECURE: 'false' });
    strict = (org) => new HttpClient(peer.baseUrl, { 'x-api-key': org.key });
  });
  afterAll(() => t?.close());

  it('creates with a secret (201) and lists without secrets', async () => {
    const org = await createOrg(t);
    const created = await org.api.post('/api/v1/webhooks', { ...valid, description: 'CRM' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      url: valid.url,
      events: ['call.ended'],
      isActive: true,
      description: 'CRM',
    });
    expect(created.body.data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(Object.keys(created.body.data).sort()).toEqual(
      ['createdAt', 'description', 'events', 'id', 'isActive', 'livemode', 'secret', 'url'].sort(),
    );
    const list = await org.api.get('/api/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].id).toBe(created.body.data.id);
    expect(list.body.data[0]).not.toHaveProperty('secret');
    expect(list.text).not.toContain(created.body.data.secret);
  });

  it.each([
    ['url', { events: ['call.ended'] }],
    ['url', { ...valid, url: 'not a url' }],
    ['url', { ...valid, url: 'ftp://example.com/x' }],
    ['events', { url: valid.url }],
    ['events', { ...valid, events: [] }],
    ['events', { ...valid, events: ['call.exploded'] }],
    ['events', { ...valid, events: ['call.ended', 'call.ended'] }],
    ['events', { ...valid, events: new Array(11).fill('call.ended').map((e, i) => (i ? `${e}${i}` : e)) }],
    ['description', { ...valid, description: 'x'.repeat(501) }],
  ])('rejects a bad %s with 400 VALIDATION_ERROR naming it', async (field, body) => {
    const org = await createOrg(t);
    const res = await org.api.post('/api/v1/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
  });

  it('accepts every known event (8; duplicates are refused, so 10 is never reached) and a 500-character description', async () => {
    const org = await createOrg(t);
    const events = [
      'call.started',
      'call.ended',
      'call.failed',
      'call.scheduled',
      'call.cancelled',
      'contact.created',
      'contact.updated',
      'contact.deleted',
    ];
    const res = await org.api.post('/api/v1/webhooks', { ...valid, events, description: 'd'.repeat(500) });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual(events);
  });

  it('without WEBHOOK_ALLOW_INSECURE refuses http and literal non-public addresses, naming url', async () => {
    const org = await createOrg(t);
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.0.0.5/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.1.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fe80::1]/x',
      'https://localhost:8443/x',
    ]) {
      const res = await strict(org).post('/api/v1/webhooks', { ...valid, url });
      expect({ url, status: res.status, code: res.body.error?.code }).toEqual({
        url,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(res.body.error.message).toMatch(/^url/);
    }
    expect((await strict(org).post('/api/v1/webhooks', { ...valid, url: 'https://8.8.8.8/x' })).status).toBe(201);
    expect((await strict(org).post('/api/v1/webhooks', valid)).status).toBe(201);
    const patched = await strict(org).patch(
      `/api/v1/webhooks/${(await org.api.get('/api/v1/webhooks')).body.data[0].id}`,
      {
        url: 'https://192.168.0.1/x',
      },
    );
    expect(patched.status).toBe(400);
  });

  it('refuses a 6th endpoint with 422 MAX_ENDPOINTS', async () => {
    const org = await createOrg(t);
    for (let i = 0; i < 5; i++) expect((await org.api.post('/api/v1/webhooks', valid)).status).toBe(201);
    const sixth = await org.api.post('/api/v1/webhooks', valid);
    expect(sixth.status).toBe(422);
    expect(sixth.body.error.code).toBe('MAX_ENDPOINTS');
  });

  it('holds the limit under concurrent creates: 3 existing + 10 parallel -> exactly 2 more', async () => {
    const org = await createOrg(t);
    for (let i = 0; i < 3; i++) expect((await org.api.post('/api/v1/webhooks', valid)).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 10 }, () => org.api.post('/api/v1/webhooks', valid)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 422)).toHaveLength(8);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1', [
      org.id,
    ]);
    expect(rows[0].n).toBe(5);
  });

  it('PATCH replaces events, disables, and re-enabling resets the failure count', async () => {
    const org = await createOrg(t);
    const { id } = (await org.api.post('/api/v1/webhooks', valid)).body.data;
    const replaced = await org.api.patch(`/api/v1/webhooks/${id}`, { events: ['contact.created', 'contact.deleted'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.events).toEqual(['contact.created', 'contact.deleted']);
    expect(replaced.body.data).not.toHaveProperty('secret');
    const disabled = await org.api.patch(`/api/v1/webhooks/${id}`, { isActive: false, description: 'paused' });
    expect(disabled.body.data).toMatchObject({ isActive: false, description: 'paused' });
    // Fixture: a failure count the delivery engine would have built up (covered end to end in the delivery spec).
    await t.db.query('UPDATE webhook_endpoints SET consecutive_failures = 7 WHERE id = $1', [id]);
    const enabled = await org.api.patch(`/api/v1/webhooks/${id}`, { isActive: true });
    expect(enabled.body.data.isActive).toBe(true);
    const { rows } = await t.db.query('SELECT consecutive_failures, disabled_at FROM webhook_endpoints WHERE id = $1', [
      id,
    ]);
    expect(rows[0]).toEqual({ consecutive_failures: 0, disabled_at: null });
    expect((await org.api.patch(`/api/v1/webhooks/${id}`, { events: [] })).status).toBe(400);
    expect((await org.api.patch(`/api/v1/webhooks/${id}`, { isActive: 'yes' })).status).toBe(400);
  });

  it('DELETE answers 204, then 404; rotate-secret returns a new secret', async () => {
    const org = await createOrg(t);
    const created = (await org.api.post('/api/v1/webhooks', valid)).body.data;
    const rotated = await org.api.post(`/api/v1/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body.data)).toEqual(['secret']);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.secret);
    const deleted = await org.api.delete(`/api/v1/webhooks/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await org.api.delete(`/api/v1/webhooks/${created.id}`)).status).toBe(404);
    expect((await org.api.post(`/api/v1/webhooks/${created.id}/rotate-secret`)).status).toBe(404);
    expect((await org.api.patch(`/api/v1/webhooks/${created.id}`, { isActive: true })).status).toBe(404);
    expect((await org.api.delete('/api/v1/webhooks/not-a-uuid')).status).toBe(400);
  });

  it("never exposes another organization's endpoint (404)", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const { id } = (await a.api.post('/api/v1/webhooks', valid)).body.data;
    expect((await b.api.patch(`/api/v1/webhooks/${id}`, { isActive: false })).status).toBe(404);
    expect((await b.api.post(`/api/v1/webhooks/${id}/rotate-secret`)).status).toBe(404);
    expect((await b.api.delete(`/api/v1/webhooks/${id}`)).status).toBe(404);
    expect((await b.api.get('/api/v1/webhooks')).body.data).toEqual([]);
    expect((await a.api.get('/api/v1/webhooks')).body.data[0].isActive).toBe(true);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const org = await createOrg(t);
    const headers = { 'idempotency-key': 'create-hook-1' };
    const first = await org.api.post('/api/v1/webhooks', valid, { headers });
    const again = await org.api.post('/api/v1/webhooks', valid, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await org.api.get('/api/v1/webhooks')).body.data).toHaveLength(1);
  });

  it('requires webhooks:read to list and webhooks:write to change', async () => {
    const org = await createOrg(t);
    const reader = await org.keyWith(['webhooks:read']);
    expect((await reader.api.get('/api/v1/webhooks')).status).toBe(200);
    const denied = await reader.api.post('/api/v1/webhooks', valid);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('webhooks:write');
  });
});
