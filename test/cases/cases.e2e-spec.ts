import { DataSource } from 'typeorm';
import { CasesService } from '../../src/modules/cases/cases.service';
import { createPrompt } from '../support/blocker-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { inTransaction } from '../../src/infra/database/tx';

const x = (n: number) => 'x'.repeat(n);
const variable = (name: string, extra: Record<string, unknown> = {}) => ({ name, source: 'custom', ...extra });

describe('cases', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>, api = org.api) => api.post('/api/v1/cases', body);
  const minimal = { title: 'Reminder', prompt: 'You remind {{name}}.' };

  describe('create', () => {
    it('returns 201 with the full object and the defaults', async () => {
      const res = await create(minimal);
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        title: 'Reminder',
        prompt: 'You remind {{name}}.',
        firstMessage: '',
        description: null,
        systemPromptId: null,
        variables: [],
        tags: [],
        toolIds: [],
        integrationToolIds: [],
        keyterms: null,
        voicemail: null,
        analysis: null,
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const got = await org.api.get(`/api/v1/cases/${res.body.data.id}`);
      expect(got.body.data).toEqual(res.body.data);
    });

    it('stores every field it accepts', async () => {
      const body = {
        title: 'Full',
        prompt: 'Call {{name}} about {{date}}',
        firstMessage: 'Hi {{name}}',
        description: 'A description',
        tags: ['a', 'b'],
        variables: [
          variable('name', { source: 'contact.title' }),
          variable('date', { defaultValue: 'tomorrow', required: true }),
          variable('_email2', { source: 'contact.email', required: false }),
        ],
        keyterms: 'Acme\nDental',
      };
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(body);
    });

    it('ignores read-only fields sent on create', async () => {
      const res = await create({
        ...minimal,
        id: '00000000-0000-4000-8000-000000000000',
        toolIds: ['t1'],
        systemPromptId: '00000000-0000-4000-8000-000000000000',
      });
      expect(res.status).toBe(201);
      expect(res.body.data.id).not.toBe('00000000-0000-4000-8000-000000000000');
      expect(res.body.data.toolIds).toEqual([]);
      expect(res.body.data.systemPromptId).toBeNull();
    });

    it.each([
      ['title', { title: x(200) }, { title: x(201) }],
      ['prompt', { prompt: x(50_000) }, { prompt: x(50_001) }],
      ['firstMessage', { firstMessage: x(1000) }, { firstMessage: x(1001) }],
      ['description', { description: x(2000) }, { description: x(2001) }],
      ['keyterms', { keyterms: x(5000) }, { keyterms: x(5001) }],
      [
        'tags',
        { tags: Array.from({ length: 20 }, (_, i) => `t${i}`) },
        { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      ],
      ['tags', { tags: [x(50)] }, { tags: [x(51)] }],
      [
        'variables',
        { variables: Array.from({ length: 50 }, (_, i) => variable(`v${i}`)) },
        { variables: Array.from({ length: 51 }, (_, i) => variable(`v${i}`)) },
      ],
    ])('accepts %s at its limit and rejects one past it', async (field, ok, tooBig) => {
      expect((await create({ ...minimal, ...ok })).status).toBe(201);
      const res = await create({ ...minimal, ...tooBig });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['title', { title: '' }],
      ['title', { title: undefined }],
      ['prompt', { prompt: '' }],
      ['prompt', { prompt: undefined }],
      ['title', { title: 42 }],
      ['tags', { tags: 'a' }],
      ['tags', { tags: [''] }],
    ])('rejects a missing or malformed %s', async (field, patch) => {
      const res = await create({ ...minimal, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['duplicate names', [variable('a'), variable('a')]],
      ['a name with a space', [variable('first name')]],
      ['a name starting with a digit', [variable('1st')]],
      ['a name with braces', [variable('{{a}}')]],
      ['an empty name', [variable('')]],
      ['an unknown source', [{ name: 'a', source: 'contact.address' }]],
      ['a missing source', [{ name: 'a' }]],
      ['a non-boolean required', [variable('a', { required: 'yes' })]],
      ['a non-string defaultValue', [variable('a', { defaultValue: 5 })]],
    ])('rejects variables with %s', async (_why, variables) => {
      const res = await create({ ...minimal, variables });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('variables');
    });

    it('replays a create with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': `case-${Date.now()}` };
      const first = await org.api.post('/api/v1/cases', minimal, { headers });
      const again = await org.api.post('/api/v1/cases', minimal, { headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.data.id).toBe(first.body.data.id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('requires cases:write', async () => {
      const reader = await org.keyWith(['cases:read']);
      const res = await create(minimal, reader.api);
      expect(res.status).toBe(403);
    });
  });

  describe('list', () => {
    let listOrg: TestOrg;
    const ids: string[] = [];
    beforeAll(async () => {
      listOrg = await createOrg(t);
      for (const title of ['Alpha reminder', 'Beta survey', 'ALPHA follow-up', '100% sure', 'Gamma']) {
        const res = await create({ ...minimal, title, variables: [variable('name'), variable('date')] }, listOrg.api);
        ids.push(res.body.data.id);
      }
    });

    it('returns the list representation, newest first, with variables as names', async () => {
      const res = await listOrg.api.get('/api/v1/cases');
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
      expect(Object.keys(res.body.data[0]).sort()).toEqual(
        ['createdAt', 'description', 'firstMessage', 'id', 'title', 'updatedAt', 'variables'].sort(),
      );
      expect(res.body.data[0].variables).toEqual(['name', 'date']);
      expect(res.body.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 25 });
    });

    it('pages with a cursor', async () => {
      const first = await listOrg.api.get('/api/v1/cases', { query: { limit: 2 } });
      expect(first.body.pagination).toMatchObject({ hasMore: true, pageSize: 2 });
      const second = await listOrg.api.get('/api/v1/cases', {
        query: { limit: 2, cursor: first.body.pagination.cursor },
      });
      const third = await listOrg.api.get('/api/v1/cases', {
        query: { limit: 2, cursor: second.body.pagination.cursor },
      });
      const all = [...first.body.data, ...second.body.data, ...third.body.data].map((c: { id: string }) => c.id);
      expect(all).toEqual([...ids].reverse());
      expect(third.body.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 2 });
    });

    it('searches titles case-insensitively, wildcards taken literally', async () => {
      const alpha = await listOrg.api.get('/api/v1/cases', { query: { search: 'alpha' } });
      expect(alpha.body.data.map((c: { title: string }) => c.title)).toEqual(['ALPHA follow-up', 'Alpha reminder']);
      const percent = await listOrg.api.get('/api/v1/cases', { query: { search: '0%' } });
      expect(percent.body.data.map((c: { title: string }) => c.title)).toEqual(['100% sure']);
      const underscore = await listOrg.api.get('/api/v1/cases', { query: { search: 'a_' } });
      expect(underscore.body.data).toEqual([]);
    });

    it('limits search to 2-100 characters', async () => {
      expect((await listOrg.api.get('/api/v1/cases', { query: { search: 'a' } })).status).toBe(400);
      expect((await listOrg.api.get('/api/v1/cases', { query: { search: x(101) } })).status).toBe(400);
      expect((await listOrg.api.get('/api/v1/cases', { query: { search: x(100) } })).status).toBe(200);
      expect((await listOrg.api.get('/api/v1/cases', { query: { search: 'ab' } })).status).toBe(200);
    });

    it('binds a cursor to its search', async () => {
      const first = await listOrg.api.get('/api/v1/cases', { query: { limit: 1, search: 'alpha' } });
      const res = await listOrg.api.get('/api/v1/cases', { query: { limit: 1, cursor: first.body.pagination.cursor } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_CURSOR');
    });

    it('validates limit', async () => {
      expect((await listOrg.api.get('/api/v1/cases', { query: { limit: 0 } })).status).toBe(400);
      expect((await listOrg.api.get('/api/v1/cases', { query: { limit: 101 } })).status).toBe(400);
    });

    it("never shows another organization's cases", async () => {
      const res = await org.api.get('/api/v1/cases', { query: { search: 'Beta survey' } });
      expect(res.body.data).toEqual([]);
    });
  });

  describe('get', () => {
    it('is 404 for an unknown id or a case of another organization, 400 for a non-UUID', async () => {
      const other = await createOrg(t);
      const mine = (await create(minimal)).body.data.id;
      expect((await other.api.get(`/api/v1/cases/${mine}`)).status).toBe(404);
      const unknown = await org.api.get('/api/v1/cases/00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      expect((await org.api.get('/api/v1/cases/nope')).status).toBe(400);
    });
  });

  describe('update', () => {
    const full = {
      title: 'Original',
      prompt: 'Prompt {{a}}',
      firstMessage: 'Hello {{a}}',
      description: 'desc',
      tags: ['x'],
      variables: [variable('a', { defaultValue: 'A' })],
      keyterms: 'k',
    };

    it('changes only the fields sent', async () => {
      const created = (await create(full)).body.data;
      const res = await org.api.patch(`/api/v1/cases/${created.id}`, { title: 'Renamed', tags: [] });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...created, title: 'Renamed', tags: [], updatedAt: expect.any(String) });
      expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    });

    it('reads null as leave unset', async () => {
      const created = (await create(full)).body.data;
      const res = await org.api.patch(`/api/v1/cases/${created.id}`, {
        title: null,
        description: null,
        firstMessage: null,
        variables: null,
        keyterms: null,
        tags: null,
        prompt: null,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created);
    });

    it('accepts a GET body sent back unchanged and changes nothing, read-only fields included', async () => {
      const created = (await create(full)).body.data;
      // toolIds are attached in the dashboard only: set them the way the dashboard would, straight in the table.
      await t.db.query(`UPDATE cases SET tool_ids = '{tool-1}', integration_tool_ids = '{int-1}' WHERE id = $1`, [
        created.id,
      ]);
      const before = (await org.api.get(`/api/v1/cases/${created.id}`)).body.data;
      const res = await org.api.patch(`/api/v1/cases/${created.id}`, before);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(before);
      expect((await org.api.get(`/api/v1/cases/${created.id}`)).body.data).toEqual(before);
    });

    it('ignores read-only fields: id, toolIds, integrationToolIds, systemPromptId, timestamps', async () => {
      const created = (await create(full)).body.data;
      const res = await org.api.patch(`/api/v1/cases/${created.id}`, {
        id: '00000000-0000-4000-8000-000000000000',
        toolIds: ['sneaky'],
        integrationToolIds: ['sneaky'],
        systemPromptId: '00000000-0000-4000-8000-000000000000',
        createdAt: '2000-01-01T00:00:00.000Z',
        updatedAt: '2000-01-01T00:00:00.000Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created);
    });

    it('replaces variables as a whole and validates them like create', async () => {
      const created = (await create(full)).body.data;
      const res = await org.api.patch(`/api/v1/cases/${created.id}`, {
        variables: [variable('b', { required: true })],
      });
      expect(res.body.data.variables).toEqual([{ name: 'b', source: 'custom', required: true }]);
      const dup = await org.api.patch(`/api/v1/cases/${created.id}`, { variables: [variable('b'), variable('b')] });
      expect(dup.status).toBe(400);
      expect((await org.api.patch(`/api/v1/cases/${created.id}`, { title: x(201) })).status).toBe(400);
      expect((await org.api.patch(`/api/v1/cases/${created.id}`, { title: '' })).status).toBe(400);
    });

    it("is 404 for another organization's case", async () => {
      const other = await createOrg(t);
      const created = (await create(full)).body.data;
      const res = await other.api.patch(`/api/v1/cases/${created.id}`, { title: 'Hijack' });
      expect(res.status).toBe(404);
      expect((await org.api.get(`/api/v1/cases/${created.id}`)).body.data.title).toBe('Original');
    });
  });

  describe('prompt library link', () => {
    it('makes calls use the library prompt and turns a prompt change into 409 CONFLICT', async () => {
      const created = (await create({ ...minimal, prompt: 'Fallback prompt' })).body.data;
      const promptId = await createPrompt(t, org.id, 'Library prompt for {{name}}');
      const link = await t.admin.post(`/admin/v1/cases/${created.id}/system-prompt`, { systemPromptId: promptId });
      expect(link.status).toBe(200);
      expect(link.body.data.systemPromptId).toBe(promptId);

      // Always in the transaction that inserts the call (a required Tx).
      const getForCall = (orgId: string, caseId: string) =>
        inTransaction(t.app.get(DataSource), (tx) => t.app.get(CasesService).getForCall(tx, orgId, caseId));
      expect((await getForCall(org.id, created.id)).prompt).toBe('Library prompt for {{name}}');

      const conflict = await org.api.patch(`/api/v1/cases/${created.id}`, { prompt: 'New prompt' });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('CONFLICT');
      const together = await org.api.patch(`/api/v1/cases/${created.id}`, { title: 'Changed', prompt: 'New prompt' });
      expect(together.status).toBe(409);
      const after = (await org.api.get(`/api/v1/cases/${created.id}`)).body.data;
      expect(after).toMatchObject({ title: created.title, prompt: 'Fallback prompt', systemPromptId: promptId });

      // The GET body of a linked case still goes back unchanged, and other fields still change.
      expect((await org.api.patch(`/api/v1/cases/${created.id}`, after)).status).toBe(200);
      expect((await org.api.patch(`/api/v1/cases/${created.id}`, { title: 'Renamed' })).body.data.title).toBe(
        'Renamed',
      );

      const unlink = await t.admin.post(`/admin/v1/cases/${created.id}/system-prompt`, { systemPromptId: null });
      expect(unlink.body.data.systemPromptId).toBeNull();
      expect((await getForCall(org.id, created.id)).prompt).toBe('Fallback prompt');
      expect((await org.api.patch(`/api/v1/cases/${created.id}`, { prompt: 'New prompt' })).body.data.prompt).toBe(
        'New prompt',
      );
    });

    it("refuses a prompt of another organization's library and an unknown case", async () => {
      const other = await createOrg(t);
      const foreignPrompt = await createPrompt(t, other.id, 'Theirs');
      const created = (await create(minimal)).body.data;
      const res = await t.admin.post(`/admin/v1/cases/${created.id}/system-prompt`, { systemPromptId: foreignPrompt });
      expect(res.status).toBe(404);
      const unknown = await t.admin.post('/admin/v1/cases/00000000-0000-4000-8000-000000000000/system-prompt', {
        systemPromptId: null,
      });
      expect(unknown.status).toBe(404);
    });

    it('getForCall is 404 for a case of another organization', async () => {
      const other = await createOrg(t);
      const created = (await create(minimal)).body.data;
      const getForCall = inTransaction(t.app.get(DataSource), (tx) =>
        t.app.get(CasesService).getForCall(tx, other.id, created.id),
      );
      await expect(getForCall).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });
});
