import { eventually } from '../messaging/messaging-fixtures';
import type { HttpClient } from '../support/http';
import type { TestApp } from '../support/test-app';

/** A case with a `{{name}}` opening line and a function tool `book` attached (admin API), as scenarios use it. */
export async function scenarioCase(t: TestApp, orgId: string, api: HttpClient): Promise<string> {
  const kase = await api.post('/api/v1/cases', {
    title: 'Front desk',
    prompt: 'You book appointments for {{name}} at Acme Dental.',
    firstMessage: 'Hi {{name}}, this is Acme Dental.',
  });
  if (kase.status !== 201) throw new Error(`case: ${kase.status} ${kase.text}`);
  const tool = await t.admin.post(`/admin/v1/organizations/${orgId}/tools`, {
    type: 'function',
    name: 'book',
    description: 'Books a slot',
    parameters: { type: 'object', properties: { day: { type: 'string' } } },
    url: 'https://tools.example.com/book',
  });
  if (tool.status !== 201) throw new Error(`tool: ${tool.status} ${tool.text}`);
  const attached = await t.admin.post(`/admin/v1/cases/${kase.body.data.id}/tools`, { toolIds: [tool.body.data.id] });
  if (attached.status >= 300) throw new Error(`tools: ${attached.status} ${attached.text}`);
  return kase.body.data.id;
}

/** A scenario of the case: 201 or the test fails naming the answer. */
export async function createScenario(api: HttpClient, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/api/v1/scenarios', body);
  if (res.status !== 201) throw new Error(`scenario: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** The run once it ended (passed, failed or error). */
export function endedRun(api: HttpClient, runId: string): Promise<any> {
  return eventually(async () => {
    const res = await api.get(`/api/v1/scenario-runs/${runId}`);
    return !['queued', 'running'].includes(res.body.data.status) && res.body.data;
  }, 15_000);
}
