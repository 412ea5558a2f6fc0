import { createScenario, endedRun, scenarioCase } from '../scenarios/scenario-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import type { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The admin routes behind a case's scenarios in the console: each answers as its public route does, in the world
 * the console's switch names (`livemode`), with the same bounds and run budget; another organization's id is 404.
 */
describe('console API: scenarios', () => {
  const RUNS_PER_MINUTE = 5;
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let testApi: HttpClient;
  let caseId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SCENARIO_RUNS_PER_MINUTE: String(RUNS_PER_MINUTE) } });
    [org, other] = await Promise.all([createOrg(t), createOrg(t)]);
    testApi = (await org.keyWith(['*'], { environment: 'test' })).api;
    caseId = await scenarioCase(t, org.id, org.api);
  });
  afterAll(() => t?.close());

  const inTest = (o: TestOrg, rest: string) =>
    `/admin/v1/organizations/${o.id}${rest}${rest.includes('?') ? '&' : '?'}livemode=false`;
  const body = {
    name: 'Books Tuesday',
    variables: { name: 'Ada' },
    turns: ['Can I book for Tuesday?'],
    expect: { replyIncludes: ['Tuesday'] },
  };

  it('writes, changes, lists and deletes in the world of the switch, as the public routes see it', async () => {
    const created = await t.admin.post(inTest(org, '/scenarios'), { ...body, caseId });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await testApi.get(`/api/v1/scenarios/${id}`)).body.data).toEqual(created.body.data);
    expect((await org.api.get(`/api/v1/scenarios/${id}`)).status).toBe(404);
    const liveList = await t.admin.get(`/admin/v1/organizations/${org.id}/scenarios?caseId=${caseId}`);
    expect(liveList.body.data.map((s: { id: string }) => s.id)).not.toContain(id);
    const listed = await t.admin.get(inTest(org, `/scenarios?caseId=${caseId}`));
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([id]);

    const changed = await t.admin.patch(inTest(org, `/scenarios/${id}`), { expect: { replyIncludes: ['Ada'] } });
    expect(changed.status).toBe(200);
    expect((await testApi.get(`/api/v1/scenarios/${id}`)).body.data.expect).toEqual({ replyIncludes: ['Ada'] });
    const refused = await t.admin.patch(inTest(org, `/scenarios/${id}`), { name: 'x'.repeat(201) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);

    expect((await t.admin.patch(inTest(other, `/scenarios/${id}`), { name: 'x' })).status).toBe(404);
    expect((await t.admin.delete(inTest(other, `/scenarios/${id}`))).status).toBe(404);
    expect((await t.admin.delete(`/admin/v1/organizations/${org.id}/scenarios/${id}`)).status).toBe(404);
    expect((await t.admin.delete(inTest(org, `/scenarios/${id}`))).status).toBe(204);
    expect((await testApi.get(`/api/v1/scenarios/${id}`)).status).toBe(404);
  });

  it("runs one and all, lists a scenario's runs newest first, and shares the organization's run budget", async () => {
    const id = await createScenario(testApi, { ...body, caseId });
    const one = await t.admin.post(inTest(org, `/scenarios/${id}/runs`), {});
    expect(one.status).toBe(202);
    expect(one.body.data).toMatchObject({ scenarioId: id, status: 'queued', livemode: false });
    const all = await t.admin.post(inTest(org, '/scenarios/runs'), { caseId });
    expect(all.status).toBe(202);
    expect(all.body.data.summary).toEqual({ passed: 0, failed: 0, pending: 1 });
    const ended = await endedRun(testApi, all.body.data.runs[0].id);
    expect(ended.status).toBe('passed');
    expect((await t.admin.get(inTest(org, `/scenario-runs/${ended.id}`))).body.data).toEqual(ended);
    expect((await t.admin.get(inTest(other, `/scenario-runs/${ended.id}`))).status).toBe(404);
    expect((await t.admin.get(`/admin/v1/organizations/${org.id}/scenario-runs/${ended.id}`)).status).toBe(404);

    const runs = await t.admin.get(inTest(org, `/scenarios/${id}/runs?limit=1`));
    expect(runs.body.data.map((r: { id: string }) => r.id)).toEqual([ended.id]);
    expect(runs.body.pagination.hasMore).toBe(true);
    const next = await t.admin.get(inTest(org, `/scenarios/${id}/runs?limit=1&cursor=${runs.body.pagination.cursor}`));
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual([one.body.data.id]);
    expect((await t.admin.get(inTest(other, `/scenarios/${id}/runs`))).status).toBe(404);

    // The console's runs count against the organization's budget like the public API's.
    for (let i = 2; i < RUNS_PER_MINUTE; i++) {
      expect((await testApi.post(`/api/v1/scenarios/${id}/runs`, {})).status).toBe(202);
    }
    const limited = await t.admin.post(inTest(org, `/scenarios/${id}/runs`), {});
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('60');
  });
});
