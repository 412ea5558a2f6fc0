import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

describe('error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers an unknown route with 404 NOT_FOUND in the envelope, with X-Request-Id', async () => {
    const res = await t.anonymous.get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane caller X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await t.anonymous.get('/health/live', { headers: { 'x-request-id': 'req-abc.123' } });
    expect(echoed.headers.get('x-request-id')).toBe('req-abc.123');
    const replaced = await t.anonymous.get('/health/live', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR naming the body', async () => {
    const res = await t.admin.post('/admin/v1/organizations', '{"name": "x",', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toMatch(/^body/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.admin.post('/admin/v1/organizations', { name: 'x', description: 'a'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a URL beyond the HTTP parser limit in the envelope, not with a bare parser error', async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/contacts?search=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('16 KB') },
    });
  });

  it('answers validation failures with 400 VALIDATION_ERROR naming each field', async () => {
    const res = await t.admin.post('/admin/v1/organizations', { name: '', contactEmail: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain('name');
    expect(res.body.error.message).toContain('contactEmail');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['contactEmail', 'name']);
  });

  it('answers a non-JSON content type on a JSON route with a 4xx envelope', async () => {
    const res = await t.admin.post('/admin/v1/organizations', 'name=x', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.code).toEqual(expect.any(String));
  });

  it('answers a malformed path id with 400 VALIDATION_ERROR naming id', async () => {
    const res = await t.admin.post('/admin/v1/api-keys/not-a-uuid/revoke');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain('id');
  });

  it('answers a missing organization profile with 404 NOT_FOUND', async () => {
    const org = await createOrg(t, { profile: false });
    const res = await org.api.get('/api/v1/organization');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('never leaks stack traces or SQL', async () => {
    const res = await t.admin.post('/admin/v1/organizations/00000000-0000-7000-8000-000000000000/api-keys', {
      scopes: ['*'],
    });
    expect(res.status).toBe(404);
    expect(res.text).not.toMatch(/at \w+ \(|SELECT|INSERT|node_modules/);
  });
});
