import { randomBytes } from 'node:crypto';
import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';

/**
 * Console sessions end with their token (docs/console.md, "Sessions"): each session is bound to the admin token
 * that opened it, so a process started with a new ADMIN_TOKEN accepts none of the sessions opened before;
 * `POST /admin/v1/sessions/revoke-all` ends them on demand; wrong tokens sent to the queue dashboard count against
 * the address's failed-authentication budget like every other refused credential.
 */
describe('console sessions bound to the admin token', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t?.close());

  /** Signs in on `baseUrl`; the session's headers (cookie and CSRF token), to use on any process. */
  async function signIn(baseUrl: string, token = ADMIN_TOKEN): Promise<Record<string, string>> {
    const res = await new HttpClient(baseUrl).post('/admin/v1/session', { token });
    expect(res.status).toBe(201);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
    return { cookie, 'x-console-csrf': res.body.data.csrfToken };
  }

  it('refuses a session opened before ADMIN_TOKEN changed, and accepts sessions of the new token', async () => {
    const opened = await signIn(t.baseUrl);
    const before = new HttpClient(t.baseUrl, opened);
    expect((await before.get('/admin/v1/session')).status).toBe(200);
    expect((await before.get('/admin/v1/organizations')).status).toBe(200);

    // The same database, a process started after the token changed (as a rolling restart does).
    const newToken = `rotated-admin-token-${randomBytes(16).toString('hex')}`;
    const rotated = await t.startPeer({ ADMIN_TOKEN: newToken });
    const oldSessionOnRotated = new HttpClient(rotated.baseUrl, opened);
    const refused = await oldSessionOnRotated.get('/admin/v1/session');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await oldSessionOnRotated.get('/admin/v1/organizations')).status).toBe(401);

    const openedAfter = await signIn(rotated.baseUrl, newToken);
    expect((await new HttpClient(rotated.baseUrl, openedAfter).get('/admin/v1/organizations')).status).toBe(200);
    // And the reverse: a process still on the old token refuses the new token's session.
    expect((await new HttpClient(t.baseUrl, openedAfter).get('/admin/v1/session')).status).toBe(401);
  });

  it('ends every session on POST /admin/v1/sessions/revoke-all', async () => {
    const first = new HttpClient(t.baseUrl, await signIn(t.baseUrl));
    const second = new HttpClient(t.baseUrl, await signIn(t.baseUrl));
    expect((await t.anonymous.post('/admin/v1/sessions/revoke-all', {})).status).toBe(401);

    // A session may end them all, its own included (the CSRF header is required like on any unsafe request).
    const res = await first.post('/admin/v1/sessions/revoke-all', {});
    expect(res.status).toBe(200);
    expect(res.body.data.revoked).toBeGreaterThanOrEqual(2);
    for (const session of [first, second]) expect((await session.get('/admin/v1/session')).status).toBe(401);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM console_sessions WHERE revoked_at IS NULL');
    expect(rows[0].n).toBe(0);

    // The bearer token is not a session: it still works, and signing in again opens a fresh session.
    expect((await t.admin.post('/admin/v1/sessions/revoke-all', {})).body.data).toEqual({ revoked: 0 });
    expect((await new HttpClient(t.baseUrl, await signIn(t.baseUrl)).get('/admin/v1/session')).status).toBe(200);
  });

  it("counts the queue dashboard's failed logins against the address's failed-auth budget", async () => {
    const wrong = new HttpClient(t.baseUrl, { authorization: 'Bearer not-the-admin-token' });
    // The budget of 3 may already hold the refusal above (revoke-all without credentials): at most 3 more 401s.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await wrong.get('/admin/queues/api/queues')).status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses[3]).toBe(429);
    const limited = await wrong.get('/admin/queues');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same budget as the admin API's: a wrong sign-in from this address is now 429 too.
    expect((await t.anonymous.post('/admin/v1/session', { token: 'wrong' })).status).toBe(429);
    // The right token is never refused by the budget.
    expect((await t.admin.get('/admin/queues/api/queues')).status).toBe(200);
  });
});
