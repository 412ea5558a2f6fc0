import { createOrg } from '../support/factory';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

describe('API keys and scopes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const get = (api: HttpClient) => api.get('/api/v1/organization');

  it('rejects a request without a key as 401 UNAUTHORIZED', async () => {
    const res = await get(t.anonymous);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it.each([
    ['garbage', 'not-a-key'],
    ['a well-formed key nobody issued', 'vc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an empty header', ''],
  ])('rejects %s as 401 UNAUTHORIZED', async (_, key) => {
    const res = await get(t.anonymous.withHeaders({ 'x-api-key': key }));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('accepts a valid key and binds its organization', async () => {
    const org = await createOrg(t, { name: 'Bound org' });
    const res = await get(org.api);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(org.id);
  });

  it('issues keys in the <prefix>_<env>_<random> format with at least 128 bits of randomness', async () => {
    const org = await createOrg(t);
    const live = await org.keyWith(['*'], { environment: 'live' });
    const test = await org.keyWith(['*'], { environment: 'test' });
    expect(live.key).toMatch(/^vc_live_[A-Za-z0-9]{43}$/);
    expect(test.key).toMatch(/^vc_test_[A-Za-z0-9]{43}$/);
  });

  it('stores keys only as SHA-256 hashes, never in plain text', async () => {
    const org = await createOrg(t);
    const { rows } = await t.db.query('SELECT * FROM api_keys WHERE organization_id = $1', [org.id]);
    expect(rows).toHaveLength(1);
    const serialized = JSON.stringify(rows.map((r) => ({ ...r, key_hash: r.key_hash.toString('hex') })));
    expect(serialized).not.toContain(org.key);
    expect(serialized).not.toContain(org.key.slice('vc_live_'.length));
    expect(rows[0].key_hash).toHaveLength(32);
  });

  it('answers 401 KEY_REVOKED immediately after revocation, also in another process', async () => {
    const org = await createOrg(t);
    const peer = await t.startPeer();
    const peerApi = new HttpClient(peer.baseUrl, { 'x-api-key': org.key });
    expect((await get(peerApi)).status).toBe(200);
    expect((await t.admin.post(`/admin/v1/api-keys/${org.keyId}/revoke`)).status).toBe(200);
    for (const api of [org.api, peerApi]) {
      const res = await get(api);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('KEY_REVOKED');
    }
  });

  it('answers 401 KEY_EXPIRED once the expiry has passed', async () => {
    const org = await createOrg(t);
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const soon = await org.keyWith(['*'], { expiresAt });
    expect((await get(soon.api)).status).toBe(200);
    // Once the expiry has passed the key is refused; until then it keeps working (never any other answer).
    const res = await waitUntil('the key to expire', async () => {
      const r = await get(soon.api);
      expect([200, 401]).toContain(r.status);
      return r.status === 401 && r;
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('KEY_EXPIRED');
  });

  it('answers 403 INSUFFICIENT_SCOPE naming the missing scope', async () => {
    const org = await createOrg(t);
    const narrow = await org.keyWith(['calls:read']);
    const res = await get(narrow.api);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(res.body.error.message).toContain('organization:read');
    const numbers = await narrow.api.get('/api/v1/phone-numbers');
    expect(numbers.status).toBe(403);
    expect(numbers.body.error.message).toContain('phone_numbers:read');
  });

  it('lets the exact scope and the wildcard through', async () => {
    const org = await createOrg(t);
    const exact = await org.keyWith(['organization:read']);
    expect((await get(exact.api)).status).toBe(200);
    expect((await get(org.api)).status).toBe(200);
  });

  it('cannot be switched to another organization by any input', async () => {
    const a = await createOrg(t, { name: 'A' });
    const b = await createOrg(t, { name: 'B' });
    const res = await a.api.get('/api/v1/organization', {
      query: { organizationId: b.id, orgId: b.id },
      headers: { 'x-organization-id': b.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(a.id);
  });

  it("never lists another organization's phone numbers or groups", async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await t.admin.post(`/admin/v1/organizations/${b.id}/phone-numbers`, { number: '+14155550199', label: 'B line' });
    await t.admin.post(`/admin/v1/organizations/${b.id}/contact-groups`, { name: 'B group' });
    expect((await a.api.get('/api/v1/phone-numbers')).body.data).toEqual([]);
    expect((await a.api.get('/api/v1/contact-groups')).body.data).toEqual([]);
    expect((await b.api.get('/api/v1/phone-numbers')).body.data).toHaveLength(1);
  });

  describe('admin API', () => {
    it('refuses requests without or with a wrong admin token', async () => {
      const none = await t.anonymous.post('/admin/v1/organizations', { name: 'x' });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('UNAUTHORIZED');
      const wrong = await t.anonymous.post(
        '/admin/v1/organizations',
        { name: 'x' },
        { headers: { authorization: 'Bearer nope' } },
      );
      expect(wrong.status).toBe(401);
    });

    it('does not exist at all when ADMIN_TOKEN is unset', async () => {
      const peer = await t.startPeer({ ADMIN_TOKEN: '' });
      const res = await new HttpClient(peer.baseUrl, { authorization: 'Bearer ' }).post('/admin/v1/organizations', {
        name: 'x',
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    });
  });
});
