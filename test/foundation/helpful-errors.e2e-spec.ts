import { request as httpRequest } from 'node:http';
import { createOrg, TestOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** Errors a first-hour user meets, saying what is wrong rather than a symptom of it. */
describe('errors that say what is wrong', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  const post = (headers: Record<string, string>, body: string) =>
    fetch(`${t.baseUrl}/api/v1/cases`, { method: 'POST', headers: { 'x-api-key': org.key, ...headers }, body });

  it("curl's default form content type is refused naming application/json, not as field errors", async () => {
    const res = await post({ 'content-type': 'application/x-www-form-urlencoded' }, '{"title":"T","prompt":"P"}');
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toBe(
      'body: Content-Type must be application/json (got application/x-www-form-urlencoded)',
    );
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const cases = await t.db.query('SELECT count(*)::int AS n FROM cases WHERE organization_id = $1', [org.id]);
    expect(cases.rows[0].n).toBe(0);
  });

  it('text/plain is refused the same way; application/json with a charset is accepted', async () => {
    const plain = await post({ 'content-type': 'text/plain' }, '{"title":"T","prompt":"P"}');
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as any).error.message).toContain('application/json (got text/plain)');
    const json = await post({ 'content-type': 'application/json; charset=utf-8' }, '{"title":"T","prompt":"P"}');
    expect(json.status).toBe(201);
  });

  it('a body with no Content-Type at all says so', async () => {
    const port = new URL(t.baseUrl).port;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/v1/cases', method: 'POST', headers: { 'x-api-key': org.key } },
        (res) => {
          let data = '';
          res.on('data', (c) => (data += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: data }));
        },
      );
      req.on('error', reject);
      req.end('{"title":"T","prompt":"P"}');
    });
    expect(status).toBe(400);
    expect(JSON.parse(text).error.message).toBe(
      'body: Content-Type must be application/json (no Content-Type was sent)',
    );
  });

  it('a missing required field "is required"; a malformed one still says what format is expected', async () => {
    const missing = await org.api.post('/api/v1/cases', { prompt: 'P' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('title is required');
    expect(missing.body.error.details).toEqual([{ field: 'title', message: 'title is required' }]);
    const wrong = await org.api.post('/api/v1/cases', { title: 42, prompt: 'P' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('title must be a string');
    const contact = await org.api.post('/api/v1/contacts', {});
    expect(contact.status).toBe(400);
    expect(contact.body.error.message).toMatch(/ is required/);
    expect(contact.body.error.message).not.toMatch(/must be/);
  });
});
