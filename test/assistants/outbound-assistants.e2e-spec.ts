import { DataSource } from 'typeorm';
import { OutboundAssistantsService } from '../../src/modules/assistants/outbound-assistants.service';
import { createFollowUpCampaign, createRecurringSchedule, insertQueuedCall } from '../support/blocker-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { inTransaction } from '../../src/infra/database/tx';

const x = (n: number) => 'x'.repeat(n);
const voice = { provider: '11labs', voiceId: 'rachel' };
const model = { provider: 'openai', model: 'gpt-4o-mini' };
const minimal = { name: 'Reminder voice', voice, model };
const path = '/api/v1/assistants/outbound';

describe('outbound assistants', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>, api = org.api) => api.post(path, body);
  const defaults = async (api = org.api) =>
    (await api.get(path)).body.data.filter((a: { isDefault: boolean }) => a.isDefault).map((a: { id: string }) => a.id);

  describe('create', () => {
    it('returns 201 with the full object and the documented defaults', async () => {
      const res = await create(minimal);
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        name: 'Reminder voice',
        description: null,
        isDefault: false,
        voice: { provider: '11labs', voiceId: 'rachel' },
        model: { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 },
        transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
        firstMessage: null,
        systemPrompt: null,
        dialKeypadFunctionEnabled: false,
        backchannelingEnabled: true,
        backgroundDenoisingEnabled: true,
        voicemail: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await org.api.get(`${path}/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    });

    it('stores every field it accepts', async () => {
      const body = {
        name: 'Full',
        description: 'Calm voice',
        voice: {
          provider: '11labs',
          voiceId: 'v',
          model: 'eleven_turbo_v2',
          language: 'de',
          stability: 0.5,
          similarityBoost: 0.75,
          speed: 1.1,
        },
        model: { provider: 'anthropic', model: 'claude', temperature: 0 },
        transcriber: { provider: 'assemblyai', model: 'best', language: 'de' },
        firstMessage: 'Hallo',
        systemPrompt: 'Be brief',
        dialKeypadFunctionEnabled: true,
        backchannelingEnabled: false,
        backgroundDenoisingEnabled: false,
      };
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(body);
    });

    it('defaults the transcriber language to en when a transcriber omits it', async () => {
      const res = await create({ ...minimal, transcriber: { provider: 'deepgram', model: 'nova-3' } });
      expect(res.body.data.transcriber).toEqual({ provider: 'deepgram', model: 'nova-3', language: 'en' });
    });

    it.each([
      ['name', { name: x(200) }, { name: x(201) }],
      ['description', { description: x(1000) }, { description: x(1001) }],
      ['firstMessage', { firstMessage: x(1000) }, { firstMessage: x(1001) }],
      ['model.temperature', { model: { ...model, temperature: 2 } }, { model: { ...model, temperature: 2.01 } }],
      ['model.temperature', { model: { ...model, temperature: 0 } }, { model: { ...model, temperature: -0.01 } }],
    ])('accepts %s at its limit and rejects one past it', async (field, ok, tooBig) => {
      expect((await create({ ...minimal, ...ok })).status).toBe(201);
      const res = await create({ ...minimal, ...tooBig });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['name', { name: '' }],
      ['name', { name: undefined }],
      ['voice', { voice: undefined }],
      ['model', { model: undefined }],
      ['voice.voiceId', { voice: { provider: '11labs' } }],
      ['voice.provider', { voice: { voiceId: 'v' } }],
      ['model.model', { model: { provider: 'openai' } }],
      ['transcriber.model', { transcriber: { provider: 'deepgram' } }],
      ['model.temperature', { model: { ...model, temperature: 'hot' } }],
      ['isDefault', { isDefault: 'yes' }],
      ['voice', { voice: 'rachel' }],
    ])('rejects a missing or malformed %s', async (field, patch) => {
      const res = await create({ ...minimal, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    });
  });

  describe('list and get', () => {
    it('lists the summary representation, newest first, without pagination', async () => {
      const own = await createOrg(t);
      const a = (await create({ ...minimal, name: 'A' }, own.api)).body.data;
      const b = (await create({ ...minimal, name: 'B', description: 'second' }, own.api)).body.data;
      const res = await own.api.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          {
            id: b.id,
            name: 'B',
            description: 'second',
            isDefault: false,
            voice: { provider: '11labs', voiceId: 'rachel' },
            model: { provider: 'openai', model: 'gpt-4o-mini' },
            createdAt: b.createdAt,
            updatedAt: b.updatedAt,
          },
          expect.objectContaining({ id: a.id, name: 'A' }),
        ],
      });
    });

    it('is 404 for an unknown id or another organization, 400 for a non-UUID', async () => {
      const other = await createOrg(t);
      const mine = (await create(minimal)).body.data.id;
      expect((await other.api.get(`${path}/${mine}`)).status).toBe(404);
      expect((await other.api.get(path)).body.data).toEqual([]);
      const unknown = await org.api.get(`${path}/00000000-0000-4000-8000-000000000000`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      expect((await org.api.get(`${path}/abc`)).status).toBe(400);
    });
  });

  describe('update', () => {
    it('leaves omitted fields alone', async () => {
      const created = (await create({ ...minimal, description: 'd', firstMessage: 'hi' })).body.data;
      const res = await org.api.patch(`${path}/${created.id}`, { name: 'Renamed', backchannelingEnabled: false });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...created,
        name: 'Renamed',
        backchannelingEnabled: false,
        updatedAt: expect.any(String),
      });
    });

    it('replaces voice, model and transcriber as whole objects, never merging', async () => {
      const created = (
        await create({
          ...minimal,
          voice: { provider: '11labs', voiceId: 'v1', language: 'en', stability: 0.3, speed: 1.2 },
          model: { provider: 'openai', model: 'gpt-4o', temperature: 1.5 },
          transcriber: { provider: 'deepgram', model: 'nova-2', language: 'fr' },
        })
      ).body.data;
      const res = await org.api.patch(`${path}/${created.id}`, {
        voice: { provider: 'cartesia', voiceId: 'v2' },
        model: { provider: 'groq', model: 'llama' },
        transcriber: { provider: 'assemblyai', model: 'best' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.voice).toEqual({ provider: 'cartesia', voiceId: 'v2' });
      expect(res.body.data.model).toEqual({ provider: 'groq', model: 'llama', temperature: 0.7 });
      expect(res.body.data.transcriber).toEqual({ provider: 'assemblyai', model: 'best', language: 'en' });
      expect((await org.api.get(`${path}/${created.id}`)).body.data).toEqual(res.body.data);
    });

    it('rejects a partial nested object instead of merging it', async () => {
      const created = (await create(minimal)).body.data;
      const res = await org.api.patch(`${path}/${created.id}`, { voice: { voiceId: 'only-id' } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('voice.provider');
    });

    it('accepts a GET body sent back and changes nothing; read-only fields are ignored', async () => {
      const created = (await create({ ...minimal, description: 'd' })).body.data;
      const res = await org.api.patch(`${path}/${created.id}`, {
        ...created,
        id: '00000000-0000-4000-8000-000000000000',
        createdAt: '2000-01-01T00:00:00.000Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created);
      expect((await org.api.get(`${path}/${created.id}`)).body.data).toEqual(created);
    });

    it('clears nullable texts with null', async () => {
      const created = (await create({ ...minimal, description: 'd', firstMessage: 'f', systemPrompt: 's' })).body.data;
      const res = await org.api.patch(`${path}/${created.id}`, {
        description: null,
        firstMessage: null,
        systemPrompt: null,
      });
      expect(res.body.data).toMatchObject({
        description: null,
        firstMessage: null,
        systemPrompt: null,
        name: created.name,
      });
    });

    it('validates like create and is 404 across organizations', async () => {
      const created = (await create(minimal)).body.data;
      expect((await org.api.patch(`${path}/${created.id}`, { name: x(201) })).status).toBe(400);
      expect((await org.api.patch(`${path}/${created.id}`, { model: { ...model, temperature: 3 } })).status).toBe(400);
      const other = await createOrg(t);
      expect((await other.api.patch(`${path}/${created.id}`, { name: 'Hijack' })).status).toBe(404);
      expect((await org.api.patch(`${path}/00000000-0000-4000-8000-000000000000`, { name: 'n' })).status).toBe(404);
    });
  });

  describe('isDefault', () => {
    it('moves the default: setting true unsets the previous one', async () => {
      const own = await createOrg(t);
      const a = (await create({ ...minimal, isDefault: true }, own.api)).body.data;
      expect(await defaults(own.api)).toEqual([a.id]);
      const b = (await create({ ...minimal, isDefault: true }, own.api)).body.data;
      expect(await defaults(own.api)).toEqual([b.id]);
      expect((await own.api.get(`${path}/${a.id}`)).body.data.isDefault).toBe(false);
      await own.api.patch(`${path}/${a.id}`, { isDefault: true });
      expect(await defaults(own.api)).toEqual([a.id]);
      await own.api.patch(`${path}/${a.id}`, { isDefault: false });
      expect(await defaults(own.api)).toEqual([]);
    });

    it('ends with exactly one default after 10 concurrent creates with isDefault true', async () => {
      const own = await createOrg(t);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => create({ ...minimal, name: `c${i}`, isDefault: true }, own.api)),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(await defaults(own.api)).toHaveLength(1);
    });

    it('ends with exactly one default after concurrent updates setting isDefault true', async () => {
      const own = await createOrg(t);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await create({ ...minimal, name: `u${i}` }, own.api)).body.data.id);
      const results = await Promise.all(ids.map((id) => own.api.patch(`${path}/${id}`, { isDefault: true })));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      const now = await defaults(own.api);
      expect(now).toHaveLength(1);
      expect(ids).toContain(now[0]);
    });

    it('keeps one default per organization, not one overall', async () => {
      const one = await createOrg(t);
      const two = await createOrg(t);
      await create({ ...minimal, isDefault: true }, one.api);
      await create({ ...minimal, isDefault: true }, two.api);
      expect(await defaults(one.api)).toHaveLength(1);
      expect(await defaults(two.api)).toHaveLength(1);
    });
  });

  /** Queued calls are inserted into `calls` directly: POST /calls is being built in parallel on another branch. */
  describe('delete', () => {
    const del = (id: string, api = org.api) => api.delete(`${path}/${id}`);

    it('deletes: 204, then 404', async () => {
      const id = (await create(minimal)).body.data.id;
      const res = await del(id);
      expect(res.status).toBe(204);
      expect((await org.api.get(`${path}/${id}`)).status).toBe(404);
      expect((await del(id)).status).toBe(404);
    });

    it('is 404 for another organization and leaves the assistant', async () => {
      const id = (await create(minimal)).body.data.id;
      const other = await createOrg(t);
      expect((await del(id, other.api)).status).toBe(404);
      expect((await org.api.get(`${path}/${id}`)).status).toBe(200);
    });

    it.each(['new', 'scheduled', 'lock-processing'] as const)('is blocked by a call in status %s', async (status) => {
      const id = (await create(minimal)).body.data.id;
      await insertQueuedCall(t, org.id, { assistantConfigId: id }, status);
      const res = await del(id);
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'CONFLICT',
        message: 'Outbound assistant is in use: 1 queued call, 0 recurring schedules, 0 follow-up campaigns',
      });
      expect((await org.api.get(`${path}/${id}`)).status).toBe(200);
    });

    it('is not blocked by dispatched or finished calls', async () => {
      const id = (await create(minimal)).body.data.id;
      await insertQueuedCall(t, org.id, { assistantConfigId: id }, 'processing');
      await insertQueuedCall(t, org.id, { assistantConfigId: id }, 'ended');
      expect((await del(id)).status).toBe(204);
    });

    it('is blocked by a paused recurring schedule and names it', async () => {
      const id = (await create(minimal)).body.data.id;
      await createRecurringSchedule(t, org.id, { assistantConfigId: id }, 'paused');
      const res = await del(id);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(
        'Outbound assistant is in use: 0 queued calls, 1 recurring schedule, 0 follow-up campaigns',
      );
    });

    it('is blocked by follow-up campaigns and names them', async () => {
      const id = (await create(minimal)).body.data.id;
      await createFollowUpCampaign(t, org.id, { assistantConfigId: id });
      await createFollowUpCampaign(t, org.id, { assistantConfigId: id });
      const res = await del(id);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(
        'Outbound assistant is in use: 0 queued calls, 0 recurring schedules, 2 follow-up campaigns',
      );
    });

    it("refuses schedules naming another organization's assistant", async () => {
      const id = (await create(minimal)).body.data.id;
      const other = await createOrg(t);
      const res = await t.admin.post(`/admin/v1/organizations/${other.id}/recurring-schedules`, {
        assistantConfigId: id,
      });
      expect(res.status).toBe(404);
    });

    it('getForCall returns the assistant of the organization and is 404 for another', async () => {
      const id = (await create(minimal)).body.data.id;
      const service = t.app.get(OutboundAssistantsService);
      // Always in the transaction that inserts the call (a required Tx).
      const getForCall = (orgId: string) =>
        inTransaction(t.app.get(DataSource), (tx) => service.getForCall(tx, orgId, id));
      expect((await getForCall(org.id)).id).toBe(id);
      const other = await createOrg(t);
      await expect(getForCall(other.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
});
