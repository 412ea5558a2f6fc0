import { randomUUID } from 'node:crypto';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp } from '../support/test-app';

let numbers = 0;
/** Numbers are unique across organizations: each test org gets its own caller ID. */
const nextNumber = () => `+1415556${String(process.pid % 100).padStart(2, '0')}${String(numbers++ % 100).padStart(2, '0')}`;

export interface CallsOrg extends TestOrg {
  from: string;
}

/** An organization with a phone number and outbound minutes (a trial through the admin API, CONTRACTS §6). */
export async function callingOrg(t: TestApp, mins = 1000): Promise<CallsOrg> {
  const org = await createOrg(t);
  const from = nextNumber();
  const number = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: from, label: 'Main' });
  if (number.status !== 201) throw new Error(`phone number: ${number.status} ${number.text}`);
  await grantTrial(t, org.id, mins);
  return { ...org, from };
}

export async function grantTrial(t: TestApp, orgId: string, mins: number): Promise<void> {
  const trial = await t.admin.post(`/admin/v1/organizations/${orgId}/trial`, { days: 30, mins });
  if (trial.status !== 201 && trial.status !== 200) throw new Error(`trial: ${trial.status} ${trial.text}`);
}

/*
 * Contacts, cases, prompt-library entries and outbound assistants are written straight into the database: their
 * APIs live in other modules, and a case's toolIds and prompt-library link cannot be set through the public API
 * at all (dashboard-only fields).
 */
export async function insertContact(
  t: TestApp,
  orgId: string,
  c: { title: string; phone: string; email?: string | null; notes?: string | null },
): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO contacts (id, organization_id, title, phone, email, notes) VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, orgId, c.title, c.phone, c.email ?? null, c.notes ?? null],
  );
  return id;
}

export async function insertCase(
  t: TestApp,
  orgId: string,
  c: {
    firstMessage?: string | null;
    prompt: string;
    toolIds?: string[];
    variables?: unknown[];
    systemPromptId?: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO cases (id, organization_id, title, first_message, prompt, tool_ids, variables, system_prompt_id)
     VALUES ($1, $2, 'Case', $3, $4, $5, $6, $7)`,
    [id, orgId, c.firstMessage ?? null, c.prompt, c.toolIds ?? [], JSON.stringify(c.variables ?? []), c.systemPromptId ?? null],
  );
  return id;
}

export async function insertPrompt(t: TestApp, orgId: string, content: string): Promise<string> {
  const id = randomUUID();
  await t.db.query(`INSERT INTO prompts (id, organization_id, content) VALUES ($1, $2, $3)`, [id, orgId, content]);
  return id;
}

export async function insertAssistant(
  t: TestApp,
  orgId: string,
  a: { firstMessage?: string | null; systemPrompt?: string | null },
): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO outbound_assistants (id, organization_id, name, voice, model, transcriber, first_message, system_prompt)
     VALUES ($1, $2, 'Voice', $3, $4, $5, $6, $7)`,
    [
      id,
      orgId,
      JSON.stringify({ provider: '11labs', voiceId: 'v1' }),
      JSON.stringify({ provider: 'openai', model: 'gpt-4o-mini', temperature: 0.7 }),
      JSON.stringify({ provider: 'deepgram', model: 'nova-2', language: 'en' }),
      a.firstMessage ?? null,
      a.systemPrompt ?? null,
    ],
  );
  return id;
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

/** The call.* events recorded in the outbox for one call, oldest first. */
export async function eventsOf(t: TestApp, callId: string): Promise<Array<{ type: string; data: any }>> {
  const { rows } = await t.db.query(
    `SELECT type, data FROM outbox_events WHERE data->>'id' = $1 ORDER BY occurred_at, id`,
    [callId],
  );
  return rows;
}
