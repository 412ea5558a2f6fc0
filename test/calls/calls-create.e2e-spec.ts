import { randomUUID } from 'node:crypto';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import {
  CallsOrg,
  callingOrg,
  eventsOf,
  finished,
  insertAssistant,
  insertCase,
  insertContact,
  insertPrompt,
  waitForCall,
} from './call-fixtures';

const DEFAULT_FIRST = 'Hello! This is an automated assistant calling. Do you have a moment to talk?';
const DEFAULT_PROMPT =
  'You are a friendly, concise phone assistant. Introduce yourself, keep answers short, and end the call politely.';

describe('calls: creation, resolution and errors', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  let assistantId: string;
  let contactId: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
    caseId = await insertCase(t, org, {
      firstMessage: 'Hi {{name}}, calling about {{topic}}',
      prompt: 'Case prompt for {{name}} <{{email}}> topic {{topic}} notes {{notes}}',
      toolNames: ['tool-a', 'tool-b'],
      variables: [{ name: 'topic', source: 'custom', defaultValue: 'your order' }],
    });
    assistantId = await insertAssistant(org, { firstMessage: 'Assistant opening', systemPrompt: 'Assistant prompt' });
    contactId = await insertContact(org, { title: 'Ada Lovelace', phone: '+14155550111', email: 'ada@example.com' });
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    org.api.post('/api/v1/calls', { to: '+14155550123', from: org.from, ...body }, { headers });

  /** The resolved prompt and opening as the simulator spoke them (its system and assistant lines). */
  const spoken = async (id: string) => {
    const call = await waitForCall(org, id, finished);
    return { system: call.transcript[0]?.content, assistant: call.transcript[1]?.content, call };
  };

  const storedCall = async (id: string) =>
    (await t.db.query('SELECT system_prompt, tool_ids FROM calls WHERE id = $1', [id])).rows[0];

  describe('resolution (docs/contracts/conventions.md, "What a call injects")', () => {
    it('neither case nor first message: generic defaults, no tools', async () => {
      const res = await create({});
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        status: 'new',
        direction: 'outbound',
        callFrom: org.from,
        callTo: '+14155550123',
        firstMessage: DEFAULT_FIRST,
      });
      expect(res.body.data).not.toHaveProperty('systemPrompt');
      expect(await storedCall(res.body.data.id)).toEqual({ system_prompt: DEFAULT_PROMPT, tool_ids: [] });
      expect(await spoken(res.body.data.id)).toMatchObject({ system: DEFAULT_PROMPT, assistant: DEFAULT_FIRST });
    });

    it('only caseId: first message, prompt and tools from the case, contact data and case defaults', async () => {
      const res = await create({ caseId, contactId });
      expect(res.status).toBe(201);
      expect(res.body.data.firstMessage).toBe('Hi Ada Lovelace, calling about your order');
      expect(res.body.data.variableValues).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        topic: 'your order',
      });
      const { toolIds } = (await org.api.get(`/api/v1/cases/${caseId}`)).body.data;
      expect(toolIds).toHaveLength(2);
      expect(await storedCall(res.body.data.id)).toMatchObject({ tool_ids: toolIds });
      const s = await spoken(res.body.data.id);
      expect(s.system).toBe('Case prompt for Ada Lovelace <ada@example.com> topic your order notes ');
      expect(s.assistant).toBe('Hi Ada Lovelace, calling about your order');
    });

    it('only firstMessage: generic prompt, no tools', async () => {
      const res = await create({ firstMessage: 'Just me' });
      expect(res.body.data.firstMessage).toBe('Just me');
      expect(await storedCall(res.body.data.id)).toEqual({ system_prompt: DEFAULT_PROMPT, tool_ids: [] });
    });

    it('both: request first message, case prompt and tools; variableValues beat contact data', async () => {
      const res = await create({
        caseId,
        contactId,
        assistantConfigId: assistantId,
        firstMessage: 'Yo {{name}}',
        variableValues: { name: 'Bob', topic: 'billing' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        firstMessage: 'Yo Bob',
        caseId,
        contactId,
        assistantConfigId: assistantId,
      });
      const s = await spoken(res.body.data.id);
      expect(s.system).toBe('Case prompt for Bob <ada@example.com> topic billing notes ');
      expect(s.assistant).toBe('Yo Bob');
    });

    it('assistant texts apply when neither request nor case supplies them', async () => {
      const res = await create({ assistantConfigId: assistantId });
      expect(res.body.data.firstMessage).toBe('Assistant opening');
      expect(await spoken(res.body.data.id)).toMatchObject({
        system: 'Assistant prompt',
        assistant: 'Assistant opening',
      });
      const noOpening = await insertCase(t, org, { firstMessage: null, prompt: 'Case only prompt' });
      const mixed = await create({ assistantConfigId: assistantId, caseId: noOpening });
      expect(await spoken(mixed.body.data.id)).toMatchObject({
        system: 'Case only prompt',
        assistant: 'Assistant opening',
      });
    });

    it('a case linked to a prompt-library entry uses the library version', async () => {
      const promptId = await insertPrompt(t, org.id, 'Library prompt for {{name}}');
      const linked = await insertCase(t, org, { prompt: 'fallback', systemPromptId: promptId });
      const res = await create({ caseId: linked, variableValues: { name: 'Zoe' } });
      expect((await spoken(res.body.data.id)).system).toBe('Library prompt for Zoe');
    });

    it('a case variable with a contact.* source resolves from that field; unresolved placeholders are empty', async () => {
      const notesContact = await insertContact(org, { title: 'Cy', phone: '+14155550112', notes: 'VIP' });
      const sourced = await insertCase(t, org, {
        firstMessage: 'Note: {{memo}}; missing: [{{nothing}}]',
        prompt: 'p',
        variables: [{ name: 'memo', source: 'contact.notes' }],
      });
      const res = await create({ caseId: sourced, contactId: notesContact });
      expect(res.body.data.firstMessage).toBe('Note: VIP; missing: []');
      expect(res.body.data.variableValues).toEqual({ memo: 'VIP' });
    });

    it('a required case variable that nothing resolves is 400 naming it', async () => {
      const strict = await insertCase(t, org, {
        prompt: 'Account {{account}}',
        variables: [{ name: 'account', source: 'custom', required: true }],
      });
      const res = await create({ caseId: strict });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain('account');
      const ok = await create({ caseId: strict, variableValues: { account: 'A-7' } });
      expect(ok.status).toBe(201);
      expect(ok.body.data.variableValues).toEqual({ account: 'A-7' });
    });
  });

  describe('validation (400)', () => {
    it.each([
      ['to', { to: '12345' }],
      ['from', { from: 'not-a-phone' }],
      ['firstMessage', { firstMessage: 'x'.repeat(1001) }],
      ['scheduledAt', { scheduledAt: 'tomorrow' }],
      ['scheduledAt', { scheduledAt: new Date(Date.now() - 60_000).toISOString() }],
      ['variableValues', { variableValues: { a: 1 } }],
      ['variableValues', { variableValues: ['a'] }],
      ['contactId', { contactId: 'nope' }],
    ])('rejects a bad %s', async (field, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it('requires to and from', async () => {
      const res = await org.api.post('/api/v1/calls', {});
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/to/);
      expect(res.body.error.message).toMatch(/from/);
    });

    it('normalises phone numbers to E.164', async () => {
      const spaced = `${org.from.slice(0, 2)} ${org.from.slice(2, 5)} ${org.from.slice(5, 8)}-${org.from.slice(8)}`;
      const res = await create({ to: '+1 (415) 555-0126', from: spaced });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ callTo: '+14155550126', callFrom: org.from });
    });
  });

  it('from not assigned to the organization is 422 INVALID_PHONE', async () => {
    const res = await create({ from: '+14155550199' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_PHONE');
  });

  it.each(['contactId', 'caseId', 'assistantConfigId'])('an unknown or foreign %s is 404', async (field) => {
    const other = await callingOrg(t);
    const foreign = {
      contactId: await insertContact(other, { title: 'X', phone: '+14155550113' }),
      caseId: await insertCase(t, other, { prompt: 'x' }),
      assistantConfigId: await insertAssistant(other, {}),
    }[field as 'caseId'];
    for (const id of [randomUUID(), foreign]) {
      const res = await create({ [field]: id });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it("GET and DELETE of another organization's call are 404; a malformed id is 400", async () => {
    const mine = (await create({ scheduledAt: new Date(Date.now() + 60_000).toISOString() })).body.data;
    const other = await createOrg(t);
    expect((await other.api.get(`/api/v1/calls/${mine.id}`)).status).toBe(404);
    expect((await other.api.delete(`/api/v1/calls/${mine.id}`)).status).toBe(404);
    expect((await org.api.get(`/api/v1/calls/${randomUUID()}`)).status).toBe(404);
    expect((await org.api.get('/api/v1/calls/abc')).status).toBe(400);
    expect((await org.api.get(`/api/v1/calls/${mine.id}`)).body.data.transcript).toEqual([]);
  });

  it('scopes: calls:read cannot create or cancel', async () => {
    const reader = await org.keyWith(['calls:read']);
    const res = await reader.api.post('/api/v1/calls', { to: '+14155550123', from: org.from });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('Idempotency-Key replays the first call instead of placing a second one', async () => {
    const headers = { 'idempotency-key': `k-${randomUUID()}` };
    const first = await create({ firstMessage: 'once' }, headers);
    const second = await create({ firstMessage: 'once' }, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    const { rows } = await t.db.query(`SELECT count(*)::int AS n FROM calls WHERE first_message = 'once'`);
    expect(rows[0].n).toBe(1);
    expect((await create({ firstMessage: 'other' }, headers)).status).toBe(422);
    await waitForCall(org, first.body.data.id, finished);
    expect((await eventsOf(t, first.body.data.id)).filter((e) => e.type === 'call.started')).toHaveLength(1);
  });

  it("creations naming a contact, a case and an assistant read them on the creating transaction's connection (no pool deadlock)", async () => {
    // The test app's pool has 8 connections. Each creation holds one for its transaction; a reference read on a
    // second connection would leave 8 creations each waiting for a 9th until the pool's acquire timeout fails them.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        create({ to: `+1415555${String(2000 + i)}`, contactId, caseId, assistantConfigId: assistantId }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
  });
});
