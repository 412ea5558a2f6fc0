import { OutboxRow, bodyOf } from '../support/event-bodies';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp } from '../support/test-app';

let numbers = 0;
/** Numbers are unique across organizations: each test org gets its own caller ID. */
const nextNumber = () =>
  `+1415556${String(process.pid % 100).padStart(2, '0')}${String(numbers++ % 100).padStart(2, '0')}`;

export interface CallsOrg extends TestOrg {
  from: string;
}

/** An organization with a phone number and outbound minutes (a trial through the admin API, docs/contracts/admin-api.md). */
export async function callingOrg(t: Pick<TestApp, 'admin' | 'baseUrl'>, mins = 1000): Promise<CallsOrg> {
  const org = await createOrg(t);
  const from = nextNumber();
  const number = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: from, label: 'Main' });
  if (number.status !== 201) throw new Error(`phone number: ${number.status} ${number.text}`);
  await grantTrial(t, org.id, mins);
  return { ...org, from };
}

export async function grantTrial(t: Pick<TestApp, 'admin'>, orgId: string, mins: number): Promise<void> {
  const trial = await t.admin.post(`/admin/v1/organizations/${orgId}/trial`, { days: 30, mins });
  if (trial.status !== 201 && trial.status !== 200) throw new Error(`trial: ${trial.status} ${trial.text}`);
}

/** The body of a 2xx answer, or an error naming the step (fixtures must not fail silently). */
function created(step: string, res: { status: number; body: any; text: string }): any {
  if (res.status < 200 || res.status > 299) throw new Error(`${step}: ${res.status} ${res.text}`);
  return res.body.data;
}

/* Fixtures go through the public and admin APIs, like the dashboard and a customer would. */
export async function insertContact(
  org: TestOrg,
  c: { title: string; phone: string; email?: string | null; notes?: string | null },
): Promise<string> {
  const body = {
    title: c.title,
    phone: c.phone,
    ...(c.email ? { email: c.email } : {}),
    ...(c.notes ? { notes: c.notes } : {}),
  };
  return created('contact', await org.api.post('/api/v1/contacts', body)).id;
}

export async function insertCase(
  t: TestApp,
  org: TestOrg,
  c: {
    firstMessage?: string | null;
    prompt: string;
    /** Names of end-call tools made for the case and attached to it (through the admin API). */
    toolNames?: string[];
    variables?: unknown[];
    systemPromptId?: string | null;
  },
): Promise<string> {
  const body = {
    title: 'Case',
    prompt: c.prompt,
    ...(c.firstMessage ? { firstMessage: c.firstMessage } : {}),
    ...(c.variables ? { variables: c.variables } : {}),
  };
  const id: string = created('case', await org.api.post('/api/v1/cases', body)).id;
  if (c.systemPromptId) {
    created(
      'prompt link',
      await t.admin.post(`/admin/v1/cases/${id}/system-prompt`, { systemPromptId: c.systemPromptId }),
    );
  }
  if (c.toolNames?.length) {
    const toolIds: string[] = [];
    for (const name of c.toolNames) {
      const tool = await t.admin.post(`/admin/v1/organizations/${org.id}/tools`, { type: 'end-call', name });
      toolIds.push(created('tool', tool).id);
    }
    created('tools', await t.admin.post(`/admin/v1/cases/${id}/tools`, { toolIds }));
  }
  return id;
}

export async function insertPrompt(t: TestApp, orgId: string, content: string): Promise<string> {
  return created('prompt', await t.admin.post(`/admin/v1/organizations/${orgId}/prompts`, { content })).id;
}

export const TEST_VOICE = { provider: '11labs', voiceId: 'v1' };
export const TEST_MODEL = { provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 };

export async function insertAssistant(
  org: TestOrg,
  a: { firstMessage?: string | null; systemPrompt?: string | null; [field: string]: unknown },
): Promise<string> {
  const { firstMessage, systemPrompt, ...rest } = a;
  const body = {
    name: 'Voice',
    voice: TEST_VOICE,
    model: TEST_MODEL,
    ...(firstMessage ? { firstMessage } : {}),
    ...(systemPrompt ? { systemPrompt } : {}),
    ...rest,
  };
  return created('assistant', await org.api.post('/api/v1/assistants/outbound', body)).id;
}

/** Polls GET /calls/{id} until `done` holds (or fails after `timeoutMs`). */
export async function waitForCall(
  org: TestOrg,
  id: string,
  done: (call: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await org.api.get(`/api/v1/calls/${id}`);
    last = res.body?.data;
    if (res.status === 200 && done(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`call ${id} did not reach the expected state; last: ${JSON.stringify(last)}`);
}

export const finished = (c: any) => c.status === 'ended' || c.status === 'error';

/** The call.* events recorded in the outbox for one call, oldest first, each with its webhook body rendered now. */
export async function eventsOf(t: TestApp, callId: string): Promise<Array<{ type: string; data: any }>> {
  const { rows } = await t.db.query<OutboxRow>(
    `SELECT type, organization_id, livemode, data FROM outbox_events WHERE data->>'callId' = $1 ORDER BY occurred_at, id`,
    [callId],
  );
  return Promise.all(rows.map(async (row) => ({ type: row.type, data: await bodyOf(t, row) })));
}
