import { createPrompt } from '../support/blocker-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const path = '/api/v1/assistants/inbound';

describe('inbound assistants', () => {
  let t: TestApp;
  let org: TestOrg;
  let promptId: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    promptId = await createPrompt(t, org.id, 'You answer the phone for Acme.');
  });
  afterAll(() => t?.close());

  /** Inbound assistants are created in the dashboard: the admin API. */
  const createInbound = async (name: string, systemPromptId = promptId, orgId = org.id) => {
    const res = await t.admin.post(`/admin/v1/organizations/${orgId}/inbound-assistants`, { name, systemPromptId });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; name: string; systemPromptId: string; createdAt: string };
  };

  it('lists the organization’s inbound assistants newest first and gets one', async () => {
    const own = await createOrg(t);
    const ownPrompt = await createPrompt(t, own.id, 'p');
    const a = await createInbound('Front desk', ownPrompt, own.id);
    const b = await createInbound('After hours', ownPrompt, own.id);
    const list = await own.api.get(path);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [b, a] });
    expect(Object.keys(a).sort()).toEqual(['createdAt', 'id', 'name', 'systemPromptId']);
    const got = await own.api.get(`${path}/${a.id}`);
    expect(got.body).toEqual({ data: a });
  });

  it('is 404 for an unknown id or another organization, 400 for a non-UUID', async () => {
    const a = await createInbound('Mine');
    const other = await createOrg(t);
    expect((await other.api.get(`${path}/${a.id}`)).status).toBe(404);
    expect((await other.api.get(path)).body.data).toEqual([]);
    expect((await org.api.get(`${path}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await org.api.get(`${path}/1`)).status).toBe(400);
  });

  it('updates the name within 1-200 characters', async () => {
    const a = await createInbound('Old');
    const ok = await org.api.patch(`${path}/${a.id}`, { name: 'n'.repeat(200) });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ ...a, name: 'n'.repeat(200) });
    for (const name of ['', 'n'.repeat(201), 5]) {
      const res = await org.api.patch(`${path}/${a.id}`, { name });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('name');
    }
  });

  it('updates systemPromptId only to an entry of the organization’s library', async () => {
    const a = await createInbound('Prompted');
    const next = await createPrompt(t, org.id, 'New prompt');
    const ok = await org.api.patch(`${path}/${a.id}`, { systemPromptId: next });
    expect(ok.status).toBe(200);
    expect(ok.body.data.systemPromptId).toBe(next);

    const other = await createOrg(t);
    const foreign = await createPrompt(t, other.id, 'Theirs');
    const res = await org.api.patch(`${path}/${a.id}`, { systemPromptId: foreign });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const unknown = await org.api.patch(`${path}/${a.id}`, { systemPromptId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect((await org.api.patch(`${path}/${a.id}`, { systemPromptId: 'nope' })).status).toBe(400);
    expect((await org.api.get(`${path}/${a.id}`)).body.data.systemPromptId).toBe(next);
  });

  it('leaves everything alone for an empty body or a GET body sent back', async () => {
    const a = await createInbound('Stable');
    expect((await org.api.patch(`${path}/${a.id}`, {})).body.data).toEqual(a);
    expect(
      (await org.api.patch(`${path}/${a.id}`, { ...a, id: '00000000-0000-4000-8000-000000000000' })).body.data,
    ).toEqual(a);
  });

  it("is 404 when patching another organization's assistant, which stays unchanged", async () => {
    const a = await createInbound('Guarded');
    const other = await createOrg(t);
    expect((await other.api.patch(`${path}/${a.id}`, { name: 'Hijack' })).status).toBe(404);
    expect((await org.api.get(`${path}/${a.id}`)).body.data.name).toBe('Guarded');
  });

  it('needs assistants:read to read and assistants:write to update', async () => {
    const a = await createInbound('Scoped');
    const reader = await org.keyWith(['assistants:read']);
    expect((await reader.api.get(path)).status).toBe(200);
    expect((await reader.api.patch(`${path}/${a.id}`, { name: 'x' })).status).toBe(403);
    const none = await org.keyWith(['cases:read']);
    expect((await none.api.get(path)).status).toBe(403);
  });

  it('refuses creating one with a prompt outside the organization’s library', async () => {
    const other = await createOrg(t);
    const foreign = await createPrompt(t, other.id, 'Theirs');
    const res = await t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, {
      name: 'Bad',
      systemPromptId: foreign,
    });
    expect(res.status).toBe(404);
  });
});
