import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const params = { type: 'object', properties: { orderId: { type: 'string', example: 'A-1' } }, required: ['orderId'] };
const fn = (extra: Record<string, unknown> = {}) => ({
  type: 'function',
  name: 'lookup_order',
  description: 'Looks an order up',
  parameters: params,
  url: 'https://tools.example.com/lookup',
  ...extra,
});
const transfer = (extra: Record<string, unknown> = {}) => ({
  type: 'transfer',
  name: 'to_sales',
  destinations: [{ number: '+14155550150', mode: 'cold' }],
  ...extra,
});

describe('tools (admin API)', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    other = await createOrg(t);
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>, orgId = org.id) =>
    t.admin.post(`/admin/v1/organizations/${orgId}/tools`, body);
  const newCase = async (api = org.api) =>
    (await api.post('/api/v1/cases', { title: 'With tools', prompt: 'Help.' })).body.data.id as string;
  const attach = (caseId: string, body: Record<string, unknown>) =>
    t.admin.post(`/admin/v1/cases/${caseId}/tools`, body);

  it('creates a function tool: 201, defaults, the secret shown once and stored for signing', async () => {
    const res = await create(fn({ name: 'fn_once' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      organizationId: org.id,
      type: 'function',
      name: 'fn_once',
      description: 'Looks an order up',
      parameters: params,
      url: 'https://tools.example.com/lookup',
      timeoutSeconds: 10,
      messages: null,
      destinations: null,
      providerToolId: null,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await t.admin.get(`/admin/v1/tools/${res.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    const stored = await t.db.query('SELECT secret FROM tools WHERE id = $1', [res.body.data.id]);
    // Stored sealed with SECRETS_KEY, never as shown (signing with it: tools-simulator.e2e-spec.ts).
    expect(stored.rows[0].secret).toMatch(/^v1\./);
    expect(stored.rows[0].secret).not.toContain(res.body.data.secret.slice(6));
    const list = await t.admin.get(`/admin/v1/organizations/${org.id}/tools`);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(res.body.data.id);
    expect(list.body.data.every((x: Record<string, unknown>) => !('secret' in x))).toBe(true);
  });

  it('creates transfer, end-call and platform tools without a secret', async () => {
    const tr = await create(
      transfer({ destinations: [{ number: '+1 (415) 555-0151', mode: 'warm', message: 'Connecting you' }] }),
    );
    expect(tr.status).toBe(201);
    expect(tr.body.data.destinations).toEqual([{ number: '+14155550151', mode: 'warm', message: 'Connecting you' }]);
    expect(tr.body.data.secret).toBeNull();
    expect((await create({ type: 'end-call', name: 'hang_up' })).status).toBe(201);
    const platform = await create({ type: 'platform', providerToolId: 'vapi-tool-1' });
    expect(platform.status).toBe(201);
    expect(platform.body.data.name).toBeNull();
  });

  it.each([
    ['name', fn({ name: 'bad name!' })],
    ['name', fn({ name: 'x'.repeat(65) })],
    ['name', { type: 'end-call' }],
    ['type', { type: 'magic', name: 'm' }],
    ['parameters', fn({ name: 'p1', parameters: { type: 'string' } })],
    ['parameters', fn({ name: 'p2', parameters: { type: 'object', properties: { a: { type: 'nope' } } } })],
    ['parameters', fn({ name: 'p3', parameters: { type: 'object', description: 'x'.repeat(16 * 1024) } })],
    ['parameters', fn({ name: 'p4', parameters: undefined })],
    ['url', fn({ name: 'u1', url: 'http://tools.example.com/x' })],
    ['url', fn({ name: 'u2', url: 'https://127.0.0.1/x' })],
    ['url', fn({ name: 'u3', url: undefined })],
    ['timeoutSeconds', fn({ name: 't1', timeoutSeconds: 0 })],
    ['timeoutSeconds', fn({ name: 't2', timeoutSeconds: 31 })],
    ['messages', fn({ name: 'm1', messages: { failed: 'x'.repeat(1001) } })],
    ['destinations', transfer({ name: 'd1', destinations: [] })],
    [
      'destinations',
      transfer({
        name: 'd2',
        destinations: Array.from({ length: 11 }, () => ({ number: '+14155550150', mode: 'cold' })),
      }),
    ],
    ['destinations', transfer({ name: 'd3', destinations: [{ number: '555', mode: 'cold' }] })],
    ['destinations', transfer({ name: 'd4', destinations: [{ number: '+14155550150', mode: 'hot' }] })],
    [
      'destinations',
      transfer({ name: 'd5', destinations: [{ number: '+14155550150', mode: 'warm', message: 'x'.repeat(1001) }] }),
    ],
    ['url', transfer({ name: 'd6', url: 'https://tools.example.com/x' })],
    ['providerToolId', { type: 'platform' }],
  ])('refuses a bad %s with 400 naming it', async (field, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error)).toContain(field);
  });

  it('accepts the bounds themselves: timeoutSeconds 1 and 30, 10 destinations, a 64-character name', async () => {
    expect((await create(fn({ name: 'b'.repeat(64), timeoutSeconds: 30 }))).status).toBe(201);
    expect((await create(fn({ name: 'b1', timeoutSeconds: 1 }))).status).toBe(201);
    const ten = Array.from({ length: 10 }, (_, i) => ({ number: `+1415555016${i}`, mode: 'cold' }));
    expect((await create(transfer({ name: 'ten', destinations: ten }))).status).toBe(201);
  });

  it('a name is unique in the organization (409), not across organizations', async () => {
    expect((await create(fn({ name: 'dup' }))).status).toBe(201);
    const again = await create(fn({ name: 'dup' }));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect((await create(fn({ name: 'dup' }), other.id)).status).toBe(201);
  });

  it('PATCH changes fields, re-checks the type, never the type itself', async () => {
    const id = (await create(fn({ name: 'patch_me' }))).body.data.id as string;
    const res = await t.admin.patch(`/admin/v1/tools/${id}`, {
      timeoutSeconds: 5,
      type: 'end-call',
      messages: { failed: 'Sorry' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'function', timeoutSeconds: 5, messages: { failed: 'Sorry' } });
    const wrong = await t.admin.patch(`/admin/v1/tools/${id}`, {
      destinations: [{ number: '+14155550150', mode: 'cold' }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('destinations');
    const local = await t.admin.patch(`/admin/v1/tools/${id}`, { url: 'https://localhost/x' });
    expect(local.status).toBe(400);
    expect((await t.admin.patch(`/admin/v1/tools/${id}`, { name: 'dup' })).status).toBe(409);
  });

  it('unknown ids are 404 and malformed ids 400', async () => {
    const unknown = '00000000-0000-7000-8000-000000000000';
    expect((await t.admin.get(`/admin/v1/tools/${unknown}`)).status).toBe(404);
    expect((await t.admin.patch(`/admin/v1/tools/${unknown}`, { name: 'x' })).status).toBe(404);
    expect((await t.admin.delete(`/admin/v1/tools/${unknown}`)).status).toBe(404);
    expect((await t.admin.get(`/admin/v1/organizations/${unknown}/tools`)).status).toBe(404);
    expect((await t.admin.get('/admin/v1/tools/not-an-id')).status).toBe(400);
  });

  it('attaches tools to a case, shows them on the public case, blocks deleting an attached tool until detached', async () => {
    const tool = (await create(fn({ name: 'attached' }))).body.data.id as string;
    const caseId = await newCase();
    const res = await attach(caseId, { toolIds: [tool, tool], integrationToolIds: ['vapi-1'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: caseId, toolIds: [tool], integrationToolIds: ['vapi-1'] });
    const pub = await org.api.get(`/api/v1/cases/${caseId}`);
    expect(pub.body.data.toolIds).toEqual([tool]);
    // The public API cannot set them.
    await org.api.patch(`/api/v1/cases/${caseId}`, { toolIds: [], integrationToolIds: [] });
    expect((await org.api.get(`/api/v1/cases/${caseId}`)).body.data.toolIds).toEqual([tool]);

    const blocked = await t.admin.delete(`/admin/v1/tools/${tool}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({ code: 'CONFLICT', message: 'Tool is in use: 1 case' });
    const detached = await attach(caseId, { toolIds: [] });
    expect(detached.body.data).toMatchObject({ toolIds: [], integrationToolIds: [] });
    expect((await t.admin.delete(`/admin/v1/tools/${tool}`)).status).toBe(204);
    expect((await t.admin.get(`/admin/v1/tools/${tool}`)).status).toBe(404);
  });

  it("refuses another organization's tool, unknown ids and more than 20 per list (400 naming the list)", async () => {
    const caseId = await newCase();
    const foreign = (await create(fn({ name: 'foreign' }), other.id)).body.data.id as string;
    const refused = await attach(caseId, { toolIds: [foreign] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('toolIds');
    const many = Array.from(
      { length: 21 },
      (_, i) => `00000000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
    );
    const tooMany = await attach(caseId, { toolIds: many });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body.error)).toContain('toolIds');
    const integrations = await attach(caseId, { toolIds: [], integrationToolIds: many });
    expect(integrations.status).toBe(400);
    expect(JSON.stringify(integrations.body.error)).toContain('integrationToolIds');
    const twenty = await attach(caseId, { toolIds: [], integrationToolIds: many.slice(0, 20) });
    expect(twenty.status).toBe(200);
    expect((await attach('00000000-0000-7000-8000-000000000000', { toolIds: [] })).status).toBe(404);
  });
});
