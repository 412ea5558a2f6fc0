import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp, { Options as PinoHttpOptions } from 'pino-http';
import { SCOPES } from '../../src/common/auth/scopes';
import { callingOrg } from '../calls/call-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { HttpClient, HttpResponse } from '../support/http';
import { ContractOperation, openApiContract } from '../support/openapi-contract';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { MAKERS, collectionOf } from './support/resource-makers';

/**
 * Every documented operation (from openapi/openapi.yaml, so new routes join automatically) against every way
 * a caller can be refused, with the exact status and code. Resources of another organization are made through
 * the public API (or the admin API where the dashboard owns them); a templated route without a maker below
 * fails the suite, so a new resource type cannot slip through unchecked.
 */
const operations = openApiContract().operations;
const UNKNOWN_ID = '0190f0c0-0000-7000-8000-000000000000';

function send(api: HttpClient, op: ContractOperation, id = UNKNOWN_ID): Promise<HttpResponse> {
  const path = op.path.replace('{id}', id);
  return api.request(op.method, path, op.operation.requestBody ? { body: {} } : {});
}

const expectError = (res: HttpResponse, status: number, code: string) => {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
};

describe('prove: security matrix', () => {
  let t: TestApp;
  let owner: TestOrg & { from: string };
  let intruder: TestOrg;
  let revoked: HttpClient;
  let expired: HttpClient;
  const victims = new Map<string, string>();
  beforeAll(async () => {
    t = await startTestApp();
    owner = await callingOrg(t);
    intruder = await createOrg(t);
    const soon = await owner.keyWith(['*'], { expiresAt: new Date(Date.now() + 1000).toISOString() });
    const gone = await owner.keyWith(['*']);
    expect((await t.admin.post(`/admin/v1/api-keys/${gone.id}/revoke`)).status).toBe(200);
    revoked = gone.api;
    expired = soon.api;
    for (const op of operations.filter((o) => o.path.includes('{'))) {
      const collection = collectionOf(op.path);
      if (!victims.has(collection) && MAKERS[collection]) victims.set(collection, await MAKERS[collection](t, owner));
    }
    // The makers above usually outlast the 1 s key; should they not, wait until the key is refused as expired.
    await waitUntil('the short-lived key to expire', async () => {
      const res = await expired.get('/api/v1/organization');
      return res.status === 401 && res.body?.error?.code === 'KEY_EXPIRED';
    });
  });
  afterAll(() => t?.close());

  it('covers every documented operation', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: no key -> 401 UNAUTHORIZED',
    async (_n, op) => {
      expectError(await send(t.anonymous, op), 401, 'UNAUTHORIZED');
      expectError(
        await send(t.anonymous.withHeaders({ 'x-api-key': 'vc_live_not-a-real-key' }), op),
        401,
        'UNAUTHORIZED',
      );
    },
  );

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: revoked key -> 401 KEY_REVOKED',
    async (_n, op) => {
      expectError(await send(revoked, op), 401, 'KEY_REVOKED');
    },
  );

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: expired key -> 401 KEY_EXPIRED',
    async (_n, op) => {
      expectError(await send(expired, op), 401, 'KEY_EXPIRED');
    },
  );

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: every scope but its own -> 403 INSUFFICIENT_SCOPE naming it',
    async (_n, op) => {
      expect(SCOPES).toContain(op.requiredScope);
      const key = await owner.keyWith(SCOPES.filter((s) => s !== '*' && s !== op.requiredScope));
      const res = await send(key.api, op);
      expectError(res, 403, 'INSUFFICIENT_SCOPE');
      expect(res.body.error.message).toContain(op.requiredScope);
    },
  );

  const templated = operations.filter((op) => op.path.includes('{id}'));
  it.each(templated.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s: another organization's id -> 404 NOT_FOUND, the resource untouched",
    async (_n, op) => {
      const collection = collectionOf(op.path);
      const victim = victims.get(collection);
      if (!victim) throw new Error(`No maker for ${collection}: add one to MAKERS so its routes are checked`);
      expectError(await send(intruder.api, op, victim), 404, 'NOT_FOUND');
      const getOp = operations.find((o) => o.method === 'GET' && o.path === `${collection}/{id}`);
      if (getOp) expect((await send(owner.api, getOp, victim)).status).toBe(200);
    },
  );

  describe('admin API', () => {
    it('is refused without its token, with a wrong one and with an API key', async () => {
      for (const client of [
        t.anonymous,
        t.anonymous.withHeaders({ authorization: 'Bearer wrong-token' }),
        t.anonymous.withHeaders({ 'x-api-key': owner.key }),
      ]) {
        expectError(await client.post('/admin/v1/organizations', { name: 'Sneaky' }), 401, 'UNAUTHORIZED');
        expectError(
          await client.post(`/admin/v1/organizations/${owner.id}/api-keys`, { scopes: ['*'], name: 'Sneaky' }),
          401,
          'UNAUTHORIZED',
        );
        expectError(await client.post(`/admin/v1/api-keys/${owner.keyId}/revoke`), 401, 'UNAUTHORIZED');
      }
      const orgs = await t.db.query(`SELECT count(*)::int AS n FROM organizations WHERE name = 'Sneaky'`);
      expect(orgs.rows[0].n).toBe(0);
      const keys = await t.db.query(
        `SELECT count(*)::int AS n FROM api_keys WHERE name = 'Sneaky' OR revoked_at IS NOT NULL AND id = $1`,
        [owner.keyId],
      );
      expect(keys.rows[0].n).toBe(0);
    });
  });

  describe('logs', () => {
    it("the app's request logger never writes an API key, admin token or provider secret", async () => {
      // The very options the app hands pino-http, at info level, writing into memory.
      const params = t.app.get<{ pinoHttp: PinoHttpOptions }>('pino-params');
      let out = '';
      const sink = new Writable({
        write(chunk, _enc, cb) {
          out += chunk.toString();
          cb();
        },
      });
      const logger = pinoHttp({ ...params.pinoHttp, level: 'info' }, sink);
      const server = createServer((req, res) => {
        logger(req, res);
        req.log.info({ req }, 'a handler logging the request');
        res.end('ok');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      const secrets = [owner.key, 'admin-secret-token', 'vapi-secret-xyz', 'sha256=deadbeef'];
      await fetch(`http://127.0.0.1:${port}/api/v1/calls?x=1`, {
        headers: {
          'x-api-key': secrets[0],
          authorization: `Bearer ${secrets[1]}`,
          'x-vapi-secret': secrets[2],
          'x-hub-signature-256': secrets[3],
        },
      });
      await new Promise<void>((r) => server.close(() => r()));
      // The handler's record reached the sink: what the logger wrote for this request is all there.
      await waitUntil('the request to be logged', () => out.includes('a handler logging the request'));
      expect(out).toContain('/api/v1/calls');
      for (const secret of secrets) expect(out).not.toContain(secret);
    });
  });
});
