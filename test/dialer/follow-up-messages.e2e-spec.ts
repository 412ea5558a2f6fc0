import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName } from '../../src/infra/queue/queue-names';
import { CallsOrg, callingOrg, finished, insertCase, waitForCall } from '../calls/call-fixtures';
import { createAccount, createTemplate, eventually, userWrites } from '../messaging/messaging-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const TEMPLATE = { templateName: 'missed_call', templateLanguage: 'en_US', variables: { '1': 'Acme Dental' } };

describe('dialer: follow-up campaigns that send an approved template after a finished call', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  let accountId: string;
  let followUpId: string;
  const path = () => `/admin/v1/organizations/${org.id}/follow-up-campaigns`;

  beforeAll(async () => {
    // Voicemail lasts a quarter of a call: 2 s, time enough to list a number while its call is live.
    t = await startTestApp({ env: { SIMULATOR_CALL_MS: '8000' } });
    org = await callingOrg(t);
    caseId = await insertCase(t, org, { prompt: 'Call back', firstMessage: 'Hello' });
    accountId = (await createAccount(t, org.id)).id;
    await createTemplate(t, accountId, {
      name: 'missed_call',
      language: 'en_US',
      body: 'We missed you; {{1}} calls back.',
    });
    await createTemplate(t, accountId, { name: 'draft', language: 'en_US', body: 'Draft', status: 'PENDING' });
  });
  afterAll(() => t?.close());

  const outcomes = async () => (await t.admin.get(`${path()}/${followUpId}/messages`)).body.data as any[];
  const outcomeOf = (callId: string) =>
    eventually(async () => (await outcomes()).find((o) => o.callId === callId && o.status !== 'sending'), 15_000);
  const call = async (api: CallsOrg['api'], to: string) => {
    const res = await api.post('/api/v1/calls', { to, from: org.from, caseId });
    expect(res.status).toBe(201);
    return waitForCall({ ...org, api }, res.body.data.id, finished, 20_000);
  };
  const outboundMessages = async (conversationId: string) =>
    (await org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data.messages.filter(
      (m: any) => m.direction === 'outbound',
    );

  describe('creation refuses a follow-up that could never send', () => {
    it.each([
      ['an unknown template', { ...TEMPLATE, templateName: 'nope' }, 404, 'TEMPLATE_NOT_FOUND'],
      ['a template pending approval', { templateName: 'draft', templateLanguage: 'en_US' }, 404, 'TEMPLATE_NOT_FOUND'],
      ['another language', { ...TEMPLATE, templateLanguage: 'es_ES' }, 404, 'TEMPLATE_NOT_FOUND'],
      ['variables that miss a placeholder', { ...TEMPLATE, variables: {} }, 400, 'VALIDATION_ERROR'],
      ['variables that are not strings', { ...TEMPLATE, variables: { '1': 2 } }, 400, 'VALIDATION_ERROR'],
      ['no template name', { templateLanguage: 'en_US' }, 400, 'VALIDATION_ERROR'],
    ])('%s is refused', async (_what, message, status, code) => {
      const res = await t.admin.post(path(), { caseId, message });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
    });

    it("another organization's approved template is not found", async () => {
      const other = await createOrg(t);
      const otherAccount = await createAccount(t, other.id, { displayPhoneNumber: '+1 555-010-0199' });
      await createTemplate(t, otherAccount.id, { name: 'theirs', language: 'en_US', body: 'Hi' });
      const res = await t.admin.post(path(), {
        caseId,
        message: { templateName: 'theirs', templateLanguage: 'en_US' },
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('TEMPLATE_NOT_FOUND');
    });
  });

  it('a not-answered call whose number has a conversation gets the template once; without one, the skip is recorded', async () => {
    const created = await t.admin.post(path(), { caseId, message: TEMPLATE });
    expect(created.status).toBe(201);
    expect(created.body.data.message).toEqual(TEMPLATE);
    followUpId = created.body.data.id;

    const withThread = '+14155670008';
    const conversationId = await userWrites(t, accountId, withThread, 'Please call me');
    const answeredThread = '+14155670000';
    const answeredConversation = await userWrites(t, accountId, answeredThread, 'Hi');

    const notAnswered = await call(org.api, withThread);
    const noThread = await call(org.api, '+14155680008');
    const answered = await call(org.api, answeredThread);
    expect(notAnswered.endedReason).toBe('customer-did-not-answer');

    const sent = await outcomeOf(notAnswered.id);
    expect(sent).toMatchObject({ status: 'sent', reason: null, conversationId });
    const skipped = await outcomeOf(noThread.id);
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'NO_CONVERSATION', messageId: null });

    // The template went through the messaging rules into the thread, rendered, as a live message.
    const messages = await outboundMessages(conversationId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: sent.messageId,
      messageType: 'template',
      text: 'We missed you; Acme Dental calls back.',
    });
    const { rows } = await t.db.query('SELECT livemode, template_name FROM messages WHERE id = $1', [sent.messageId]);
    expect(rows).toEqual([{ livemode: true, template_name: 'missed_call' }]);

    // The call that was answered triggers nothing: its thread holds no outbound message, and it has no record.
    expect((await outcomes()).map((o) => o.callId)).not.toContain(answered.id);
    expect(await outboundMessages(answeredConversation)).toEqual([]);

    // The finished-call event processed a second time (a redelivery under another job id) sends nothing more.
    const { rows: events } = await t.db.query(
      `SELECT event_id, occurred_at FROM outbox_events WHERE type = 'call.ended' AND data->>'callId' = $1`,
      [notAnswered.id],
    );
    expect(events).toHaveLength(1);
    const queue = t.app.get(JobQueue);
    const again = await queue.add(
      JobName.DomainEvent,
      { eventId: events[0].event_id, organizationId: org.id, type: 'call.ended', occurredAt: events[0].occurred_at },
      { jobId: `redelivered-${events[0].event_id}` },
    );
    await eventually(async () => (await again.getState()) === 'completed', 15_000);
    expect(await outboundMessages(conversationId)).toHaveLength(1);
    expect((await outcomes()).filter((o) => o.callId === notAnswered.id)).toHaveLength(1);
  });

  it("a test key's call messages its world's (a test account's) conversation; a listed number gets none", async () => {
    const testKey = await org.keyWith(['*'], { environment: 'test' });
    const testAccount = (await createAccount(t, org.id, { displayPhoneNumber: '+1 555-010-0177', livemode: false })).id;
    await createTemplate(t, testAccount, { name: 'missed_call', language: 'en_US', body: 'We missed you; {{1}}.' });
    const voicemail = '+14155670017';
    const liveConversation = await userWrites(t, accountId, voicemail, 'Hello?');
    const conversationId = await userWrites(t, testAccount, voicemail, 'Hello?');
    const testCall = await call(testKey.api, voicemail);
    expect(testCall.endedReason).toBe('voicemail-reached');
    const sent = await outcomeOf(testCall.id);
    expect(sent).toMatchObject({ status: 'sent', conversationId });
    const { rows } = await t.db.query('SELECT livemode FROM messages WHERE id = $1', [sent.messageId]);
    expect(rows).toEqual([{ livemode: false }]);
    expect(await outboundMessages(liveConversation)).toEqual([]);

    // A number listed while its call is live (the user wrote STOP meanwhile) gets no template when the call ends.
    const stopped = '+14155690007';
    const stoppedConversation = await userWrites(t, accountId, stopped, 'Hi');
    const placed = await org.api.post('/api/v1/calls', { to: stopped, from: org.from, caseId });
    await waitForCall(org, placed.body.data.id, (c) => c.status === 'processing');
    await userWrites(t, accountId, stopped, 'STOP');
    const ended = await waitForCall(org, placed.body.data.id, finished);
    expect(ended.endedReason).toBe('voicemail-reached');
    expect(await outcomeOf(ended.id)).toMatchObject({ status: 'skipped', reason: 'DO_NOT_CALL', messageId: null });
    expect(await outboundMessages(stoppedConversation)).toEqual([]);
  });
});
