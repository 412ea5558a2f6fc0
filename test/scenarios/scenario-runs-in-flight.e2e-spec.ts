import { TestOrg, createOrg } from '../support/factory';
import type { HttpClient } from '../support/http';
import { TestApp } from '../support/test-app';
import { FakeVapi } from '../voice/fake-vapi';
import { startWithVapi } from '../voice/voice-fixtures';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { createScenario, scenarioCase } from './scenario-fixtures';

/**
 * The in-flight bound end to end: runs held in flight on Vapi's chat API (the strict fake keeps their chats
 * unanswered) fill `SCENARIO_RUNS_IN_FLIGHT`; every start past it, in either world and by either route, is 429
 * with the envelope and `Retry-After: 5`; once the runs' `scenario_run.completed` events arrive, starting is
 * accepted again.
 */
describe('scenario runs in flight', () => {
  const IN_FLIGHT = 2;
  let fake: FakeVapi;
  let t: TestApp;
  let receiver: WebhookReceiver;
  let org: TestOrg;
  let testApi: HttpClient;
  let caseId: string;
  let scenarioId: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    ({ fake, t } = await startWithVapi({
      SCENARIO_RUNS_IN_FLIGHT: String(IN_FLIGHT),
      WEBHOOK_ALLOW_INSECURE: 'true',
    }));
    org = await createOrg(t);
    testApi = (await org.keyWith(['*'], { environment: 'test' })).api;
    caseId = await scenarioCase(t, org.id, org.api);
    scenarioId = await createScenario(org.api, {
      caseId,
      name: 'Books Tuesday',
      variables: { name: 'Ada' },
      turns: ['Can I book for Tuesday?'],
      expect: { replyIncludes: ['Tuesday'] },
    });
    const hook = await org.api.post('/api/v1/webhooks', {
      url: `${receiver.url}/completed`,
      events: ['scenario_run.completed'],
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await receiver?.stop();
  });

  /** The run ids whose `scenario_run.completed` reached the receiver. */
  const completed = () =>
    new Set(receiver.on('/completed').map((r) => (JSON.parse(r.rawBody) as { data: { id: string } }).data.id));

  const expectRefused = (res: { status: number; body: any; headers: Headers }) => {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: expect.objectContaining({
        code: 'RATE_LIMITED',
        message: `An organization may start at most ${IN_FLIGHT} scenario runs queued or running at once`,
      }),
    });
    expect(res.headers.get('retry-after')).toBe('5');
  };

  it('refuses runs past the bound while runs are in flight, and accepts them again once those complete', async () => {
    const release = fake.holdChats();
    const started: string[] = [];
    for (let i = 0; i < IN_FLIGHT; i++) {
      const res = await org.api.post(`/api/v1/scenarios/${scenarioId}/runs`, {});
      expect(res.status).toBe(202);
      started.push(res.body.data.id);
    }

    // One budget for the organization: the other world and the case-wide route are refused too, none started.
    expectRefused(await org.api.post(`/api/v1/scenarios/${scenarioId}/runs`, {}));
    expectRefused(await org.api.post('/api/v1/scenarios/runs', { caseId }));
    const testScenario = await createScenario(testApi, {
      caseId,
      name: 'Simulator',
      turns: ['Hello'],
      expect: {},
    });
    expectRefused(await testApi.post(`/api/v1/scenarios/${testScenario}/runs`, {}));
    const runs = await t.db.query('SELECT id FROM scenario_runs WHERE organization_id = $1', [org.id]);
    expect(runs.rows.map((r: { id: string }) => r.id).sort()).toEqual([...started].sort());

    release();
    await receiver.waitFor(() => started.every((id) => completed().has(id)), 30_000, 'the runs to complete');
    for (const id of started) {
      expect((await org.api.get(`/api/v1/scenario-runs/${id}`)).body.data.status).toBe('passed');
    }

    const again = await testApi.post(`/api/v1/scenarios/${testScenario}/runs`, {});
    expect(again.status).toBe(202);
    const all = await org.api.post('/api/v1/scenarios/runs', { caseId });
    expect(all.status).toBe(202);
    expect(all.body.data.runs).toHaveLength(1);
  });
});
