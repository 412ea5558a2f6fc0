import { randomUUID } from 'node:crypto';
import { bodyOf } from '../support/event-bodies';
import { TestOrg, createOrg } from '../support/factory';
import type { HttpClient } from '../support/http';
import { TestApp } from '../support/test-app';
import { FakeVapi } from '../voice/fake-vapi';
import { startWithVapi } from '../voice/voice-fixtures';
import { createScenario, endedRun, scenarioCase } from './scenario-fixtures';

/**
 * Scenarios and their runs over HTTP, in both worlds: the test world on the chat simulator, the live world on
 * Vapi's chat API (the strict fake). The expectation rules are unit-tested (scenario-expectations.spec.ts).
 */
describe('scenarios', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: TestOrg;
  let testApi: HttpClient;
  let caseId: string;
  const RUNS_PER_MINUTE = 12;

  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({ SCENARIO_RUNS_PER_MINUTE: String(RUNS_PER_MINUTE) }));
    org = await createOrg(t);
    testApi = (await org.keyWith(['*'], { environment: 'test' })).api;
    caseId = await scenarioCase(t, org.id, org.api);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const booking = {
    name: 'Books Tuesday',
    variables: { name: 'Ada' },
    turns: ['Can I book for Tuesday?'],
    expect: {
      replyIncludes: ['Acme', 'tuesday'],
      replyExcludes: ['refund'],
      toolCalls: [{ name: 'book', argumentsInclude: { text: 'TUESDAY' } }],
      handOff: false,
    },
  };
  const run = async (api: HttpClient, scenarioId: string, body: Record<string, unknown> = {}) => {
    const res = await api.post(`/api/v1/scenarios/${scenarioId}/runs`, body);
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('queued');
    return res.body.data.id as string;
  };

  describe('CRUD', () => {
    it('creates, reads, lists by case and deletes a scenario in the key’s world; the other world sees none of it', async () => {
      const created = await testApi.post('/api/v1/scenarios', { ...booking, caseId });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(String),
        caseId,
        livemode: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        ...booking,
      });
      const id = created.body.data.id;
      expect((await testApi.get(`/api/v1/scenarios/${id}`)).body.data).toEqual(created.body.data);
      const listed = await testApi.get(`/api/v1/scenarios?caseId=${caseId}`);
      expect(listed.body.data.map((s: any) => s.id)).toContain(id);
      expect((await org.api.get(`/api/v1/scenarios/${id}`)).status).toBe(404);
      expect((await org.api.get(`/api/v1/scenarios?caseId=${caseId}`)).body.data).toEqual([]);
      expect((await org.api.delete(`/api/v1/scenarios/${id}`)).status).toBe(404);
      expect((await testApi.delete(`/api/v1/scenarios/${id}`)).status).toBe(204);
      expect((await testApi.get(`/api/v1/scenarios/${id}`)).status).toBe(404);
    });

    it('changes a scenario: each field given replaces the stored one, a null leaves it; bounds as on create', async () => {
      const id = await createScenario(testApi, { ...booking, caseId });
      const changed = await testApi.patch(`/api/v1/scenarios/${id}`, {
        name: 'Books Wednesday',
        turns: ['Wednesday?', 'Thanks'],
        variables: null,
        expect: { replyIncludes: ['wednesday'] },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({
        id,
        caseId,
        name: 'Books Wednesday',
        turns: ['Wednesday?', 'Thanks'],
        variables: booking.variables,
        expect: { replyIncludes: ['wednesday'] },
      });
      expect((await testApi.get(`/api/v1/scenarios/${id}`)).body.data).toEqual(changed.body.data);
      const refused = await testApi.patch(`/api/v1/scenarios/${id}`, { turns: Array.from({ length: 21 }, () => 'hi') });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.map((d: any) => d.field)).toEqual(['turns']);
      expect((await testApi.patch(`/api/v1/scenarios/${id}`, { caseId: randomUUID() })).body.data.caseId).toBe(caseId);
      expect((await org.api.patch(`/api/v1/scenarios/${id}`, { name: 'x' })).status).toBe(404);
      const reader = (await org.keyWith(['cases:read'], { environment: 'test' })).api;
      expect((await reader.patch(`/api/v1/scenarios/${id}`, { name: 'x' })).status).toBe(403);
    });

    it("is 404 for another organization's case and refuses unbounded input with 400", async () => {
      const other = await createOrg(t);
      const res = await other.api.post('/api/v1/scenarios', { ...booking, caseId });
      expect(res.status).toBe(404);
      const bad = (patch: Record<string, unknown>) =>
        org.api.post('/api/v1/scenarios', { ...booking, caseId, ...patch });
      for (const patch of [
        { turns: [] },
        { turns: Array.from({ length: 21 }, () => 'hi') },
        { turns: ['x'.repeat(2001)] },
        { name: '' },
        { expect: { replyIncludes: Array.from({ length: 21 }, () => 'a') } },
        { expect: { toolCalls: [{ name: 'book', argumentsInclude: 'text' }] } },
      ]) {
        const refused = await bad(patch);
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('VALIDATION_ERROR');
      }
      const most = await bad({ turns: Array.from({ length: 20 }, () => 'x'.repeat(2000)) });
      expect(most.status).toBe(201);
      expect((await org.api.delete(`/api/v1/scenarios/${most.body.data.id}`)).status).toBe(204);
    });

    it('a case has at most 20 scenarios in a world: the 21st is 422 MAX_SCENARIOS', async () => {
      const kase = await org.api.post('/api/v1/cases', { title: 'Capped', prompt: 'p' });
      for (let i = 0; i < 20; i++) await createScenario(org.api, { ...booking, caseId: kase.body.data.id });
      const refused = await org.api.post('/api/v1/scenarios', { ...booking, caseId: kase.body.data.id });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('MAX_SCENARIOS');
      expect((await testApi.post('/api/v1/scenarios', { ...booking, caseId: kase.body.data.id })).status).toBe(201);
    });
  });

  describe('runs on the simulator (test world)', () => {
    it('passes: every expectation judged with what was seen; the webhook event carries the run', async () => {
      const scenarioId = await createScenario(testApi, { ...booking, caseId });
      const runId = await run(testApi, scenarioId);
      const ended = await endedRun(testApi, runId);
      const said = 'Thanks Ada, you said: "Can I book for Tuesday?"';
      const call = { name: 'book', arguments: { text: 'Can I book for Tuesday?' } };
      expect(ended).toEqual({
        id: runId,
        scenarioId,
        caseId,
        caseVersion: 2,
        status: 'passed',
        transcript: [
          { role: 'assistant', text: 'Hi Ada, this is Acme Dental.' },
          { role: 'user', text: 'Can I book for Tuesday?' },
          { role: 'assistant', text: said, toolCalls: [call] },
        ],
        expectations: [
          { type: 'replyIncludes', expected: 'Acme', passed: true, seen: 'Hi Ada, this is Acme Dental.' },
          { type: 'replyIncludes', expected: 'tuesday', passed: true, seen: said },
          { type: 'replyExcludes', expected: 'refund', passed: true, seen: null },
          { type: 'toolCall', expected: booking.expect.toolCalls[0], passed: true, seen: call },
          { type: 'handOff', expected: false, passed: true, seen: false },
        ],
        durationMs: expect.any(Number),
        usage: null,
        error: null,
        livemode: false,
      });
      const { rows } = await t.db.query(
        `SELECT type, organization_id, livemode, data FROM outbox_events WHERE type = 'scenario_run.completed' AND data->>'runId' = $1`,
        [runId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].livemode).toBe(false);
      expect(await bodyOf(t, rows[0])).toEqual(ended);
    });

    it('fails deterministically, showing what was seen for each failed expectation', async () => {
      const scenarioId = await createScenario(testApi, {
        caseId,
        name: 'Expects a refund',
        turns: ['I want my money back'],
        expect: { replyIncludes: ['refund'], toolCalls: [{ name: 'book' }], handOff: true },
      });
      const ended = await endedRun(testApi, await run(testApi, scenarioId));
      expect(ended.status).toBe('failed');
      expect(ended.expectations).toEqual([
        {
          type: 'replyIncludes',
          expected: 'refund',
          passed: false,
          seen: 'Hi , this is Acme Dental.\nThanks there, you said: "I want my money back"',
        },
        { type: 'toolCall', expected: { name: 'book' }, passed: false, seen: [] },
        { type: 'handOff', expected: true, passed: false, seen: false },
      ]);
    });

    it('a hand-off keyword hands off and the assistant stops', async () => {
      const scenarioId = await createScenario(testApi, {
        caseId,
        name: 'Wants a person',
        turns: ['Hello', 'Get me a HUMAN please', 'Are you there?'],
        expect: { handOff: true },
      });
      const ended = await endedRun(testApi, await run(testApi, scenarioId));
      expect(ended.status).toBe('passed');
      expect(ended.transcript.map((l: any) => l.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
      expect(ended.transcript[3].text).toBe('Get me a HUMAN please');
    });

    it('runs an older version of the case when asked, else the current one; a version it lacks is 400', async () => {
      const kase = await testApi.post('/api/v1/cases', { title: 'Versions', prompt: 'p', firstMessage: 'Old hello' });
      await testApi.patch(`/api/v1/cases/${kase.body.data.id}`, { firstMessage: 'New hello' });
      const scenarioId = await createScenario(testApi, {
        caseId: kase.body.data.id,
        name: 'Greets',
        turns: ['hi'],
        expect: { replyIncludes: ['new hello'] },
      });
      const older = await endedRun(testApi, await run(testApi, scenarioId, { caseVersion: 1 }));
      expect(older).toMatchObject({ caseVersion: 1, status: 'failed' });
      expect(older.transcript[0]).toEqual({ role: 'assistant', text: 'Old hello' });
      const current = await endedRun(testApi, await run(testApi, scenarioId));
      expect(current).toMatchObject({ caseVersion: 2, status: 'passed' });
      const unknown = await testApi.post(`/api/v1/scenarios/${scenarioId}/runs`, { caseVersion: 3 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('runs every scenario of a case at once: 202 with the runs and a summary; another world’s run is 404', async () => {
      const other = await createOrg(t);
      const api = (await other.keyWith(['*'], { environment: 'test' })).api;
      const kase = await scenarioCase(t, other.id, api);
      const ids = [
        await createScenario(api, { ...booking, caseId: kase }),
        await createScenario(api, { ...booking, caseId: kase, expect: { replyIncludes: ['refund'] } }),
      ];
      const res = await api.post('/api/v1/scenarios/runs', { caseId: kase });
      expect(res.status).toBe(202);
      expect(res.body.data.summary).toEqual({ passed: 0, failed: 0, pending: 2 });
      expect(res.body.data.runs.map((r: any) => r.scenarioId)).toEqual(ids);
      const ended = await Promise.all(res.body.data.runs.map((r: any) => endedRun(api, r.id)));
      expect(ended.map((r) => r.status)).toEqual(['passed', 'failed']);
      expect((await other.api.get(`/api/v1/scenario-runs/${ended[0].id}`)).status).toBe(404);
      expect((await org.api.get(`/api/v1/scenario-runs/${ended[0].id}`)).status).toBe(404);
    });

    it(`an organization starts at most ${RUNS_PER_MINUTE} runs a minute: then 429 RATE_LIMITED with Retry-After`, async () => {
      const other = await createOrg(t);
      const kase = await scenarioCase(t, other.id, other.api);
      const scenarioId = await createScenario(other.api, { ...booking, caseId: kase });
      const api = (await other.keyWith(['*'], { environment: 'test' })).api;
      const testScenario = await createScenario(api, { ...booking, caseId: kase });
      for (let i = 0; i < RUNS_PER_MINUTE - 1; i++) await run(api, testScenario);
      // One budget for the organization, whichever world starts the run.
      await run(other.api, scenarioId);
      const refused = await api.post(`/api/v1/scenarios/${testScenario}/runs`, {});
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toBe('60');
      const bulk = await other.api.post('/api/v1/scenarios/runs', { caseId: kase });
      expect(bulk.status).toBe(429);
    });

    it('running needs cases:write; reading needs cases:read', async () => {
      const reader = (await org.keyWith(['cases:read'], { environment: 'test' })).api;
      const scenarioId = await createScenario(testApi, { ...booking, caseId });
      const refused = await reader.post(`/api/v1/scenarios/${scenarioId}/runs`, {});
      expect(refused.status).toBe(403);
      expect((await reader.get(`/api/v1/scenarios/${scenarioId}`)).status).toBe(200);
    });
  });

  describe("runs on Vapi's chat API (live world)", () => {
    it('sends each turn as a CreateChatDTO with the tools and no server, chains previousChatId, sees the tool call', async () => {
      const scenarioId = await createScenario(org.api, {
        caseId,
        name: 'Live booking',
        variables: { name: 'Ada' },
        turns: ['Hello', 'Please book Tuesday'],
        expect: {
          replyIncludes: ['Vapi heard (turn 2)'],
          toolCalls: [{ name: 'book', argumentsInclude: { text: 'tuesday' } }],
        },
      });
      const before = fake.chatRequests().length;
      const ended = await endedRun(org.api, await run(org.api, scenarioId));
      expect(ended.status).toBe('passed');
      expect(ended.usage).toEqual({ tokens: 30, costUsd: 0.0002 });
      const chats = fake.chatRequests().slice(before);
      expect(chats.map((c) => c.body.input)).toEqual(['Hello', 'Please book Tuesday']);
      expect(chats.every((c) => c.accepted)).toBe(true);
      expect(chats[1].body.previousChatId).toBe(chats[0].accepted);
      const model = chats[0].body.assistant?.model as any;
      expect(model.messages).toEqual([{ role: 'system', content: 'You book appointments for Ada at Acme Dental.' }]);
      expect(model.tools).toEqual([
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'book' }) }),
      ]);
      expect(model.tools[0].server).toBeUndefined();
    });
  });
});
