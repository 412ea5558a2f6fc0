import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import {
  CallsOrg,
  callingOrg,
  finished,
  insertAssistant,
  insertCase,
  insertContact,
  waitForCall,
} from '../calls/call-fixtures';
import { occurNow } from './campaign-fixtures';

describe("dialer: a recurring schedule's occurrence is placed on its tick's own connection", () => {
  let t: TestApp;
  let org: CallsOrg;
  beforeAll(async () => {
    // The tick holds a connection for its transaction (the due schedules locked) while it places each
    // occurrence. Ticks overlap once one outlasts the interval (up to the campaigns queue's concurrency, 10 a
    // process), so as many ticks as connections, each waiting for a second one, would deadlock the pool until
    // its 10 s acquire timeout. A pool of one connection makes that the single tick here.
    t = await startTestApp({ env: { DATABASE_POOL_SIZE: '1' } });
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  it('places the occurrence (with its case, assistant and contact) and its call, no pool deadlock', async () => {
    const caseId = await insertCase(t, org, { prompt: 'Remind {{name}}', firstMessage: 'Hello {{name}}' });
    const assistantConfigId = await insertAssistant(org, { systemPrompt: 'Assistant prompt' });
    const contactId = await insertContact(org, { title: 'Grace Hopper', phone: '+14155670000' });
    const created = await t.admin.post(`/admin/v1/organizations/${org.id}/recurring-schedules`, {
      caseId,
      assistantConfigId,
      rrule: 'FREQ=DAILY',
      from: org.from,
      audience: { rows: [{ to: '+14155670000', contactId }] },
    });
    expect(created.status).toBe(201);
    const scheduleId = created.body.data.id;
    // The tick has handled the occurrence (placed or given up) once the schedule's next occurrence moved on.
    await occurNow(t, scheduleId);
    const { rows: campaigns } = await t.db.query('SELECT id FROM campaigns WHERE source_id = $1', [scheduleId]);
    expect(campaigns).toHaveLength(1);

    const callId = await waitUntil(
      "the occurrence's call",
      async () =>
        (await t.db.query('SELECT id FROM calls WHERE campaign_id = $1', [campaigns[0].id])).rows[0]?.id as
          string | undefined,
      30_000,
    );
    expect(callId).toBeDefined();
    const call = await waitForCall(org, callId, finished);
    expect(call).toMatchObject({ caseId, assistantConfigId, contactId, firstMessage: 'Hello Grace Hopper' });
  });
});
