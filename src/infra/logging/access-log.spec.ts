import Fastify from 'fastify';
import { installAccessLog } from './access-log';

describe('access log', () => {
  const lines: Record<string, unknown>[] = [];
  const quiet: Record<string, unknown>[] = [];
  const app = Fastify();
  installAccessLog(app, { log: (line) => lines.push(line), debug: (line) => quiet.push(line) });
  app.addHook('preHandler', async (request) => {
    if (request.headers['x-api-key'] === 'vc_test_secret') {
      request.auth = { organizationId: 'org-1', apiKeyId: 'key-1', scopes: ['*'], livemode: false };
    }
  });
  app.get('/api/v1/contacts/:id', async () => ({ data: {} }));
  app.post('/admin/v1/organizations', async (_request, reply) => reply.code(201).send({ data: {} }));
  app.get('/admin/v1/organizations', async () => ({ data: [] }));
  app.get('/health/live', async () => ({ status: 'ok' }));
  beforeEach(() => {
    lines.length = 0;
    quiet.length = 0;
  });
  afterAll(() => app.close());

  it('writes one line per API request: route template, status, duration, request id, org and key ids', async () => {
    await app.inject({
      method: 'GET',
      url: '/api/v1/contacts/0190f0c0-0000-7000-8000-000000000001?search=ada',
      headers: { 'x-api-key': 'vc_test_secret' },
    });
    // A successful read: written at debug (the next test), the same line.
    expect([...lines, ...quiet]).toEqual([
      {
        method: 'GET',
        route: '/api/v1/contacts/:id',
        status: 200,
        durationMs: expect.any(Number),
        requestId: expect.any(String),
        organizationId: 'org-1',
        apiKeyId: 'key-1',
      },
    ]);
  });

  it('logs admin and unauthenticated requests too, and never a header, a body or a key', async () => {
    await app.inject({ method: 'POST', url: '/admin/v1/organizations', payload: { name: 'secret-name' } });
    await app.inject({ method: 'GET', url: '/api/v1/nowhere', headers: { authorization: 'Bearer secret' } });
    expect(lines.map((l) => [l.route, l.status, l.organizationId])).toEqual([
      ['/admin/v1/organizations', 201, null],
      [null, 404, null],
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });

  it('leaves health probes out', async () => {
    await app.inject({ method: 'GET', url: '/health/live' });
    expect(lines).toEqual([]);
  });

  it('writes successful admin and public reads at debug, and a refused one at info', async () => {
    await app.inject({ method: 'GET', url: '/admin/v1/organizations?limit=25' });
    await app.inject({ method: 'GET', url: '/api/v1/contacts/0190f0c0-0000-7000-8000-000000000001' });
    await app.inject({ method: 'GET', url: '/admin/v1/nowhere' });
    expect(quiet.map((l) => [l.route, l.status])).toEqual([
      ['/admin/v1/organizations', 200],
      ['/api/v1/contacts/:id', 200],
    ]);
    expect(lines.map((l) => [l.route, l.status])).toEqual([[null, 404]]);
  });
});
