import { randomUUID } from 'node:crypto';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { eventually } from './messaging-fixtures';
import { useWhatsAppWorld } from './whatsapp-world';

/** The pace these tests send at: small, so that pacing shows in a few sends. */
const RATE_PER_SECOND = 4;
const SLOT_MS = 1000 / RATE_PER_SECOND;
const RECIPIENT_INTERVAL_MS = 3000;
/** Room for one request's way from our process to the fake (a receipt may lag its reserved slot by that much). */
const TRANSPORT_MS = 500;

/**
 * The WhatsApp send queue against the strict fake Graph API: messages stored before the send and tagged with our id,
 * sends paced per number and per recipient, rate limits and Meta's trouble retried from the queue, Meta's account
 * codes refused at once, and a send left unanswered reconciled by the status webhook that names it (never sent twice).
 */
describe('messaging: WhatsApp send queue, pacing and reconciliation (strict fake Graph API)', () => {
  const w = useWhatsAppWorld({
    WHATSAPP_SEND_RATE_PER_SECOND: String(RATE_PER_SECOND),
    WHATSAPP_RECIPIENT_INTERVAL_MS: String(RECIPIENT_INTERVAL_MS),
    WHATSAPP_RECIPIENT_BURST: '2',
    WHATSAPP_SEND_INLINE_WAIT_MS: '1000',
    WHATSAPP_REQUEST_TIMEOUT_MS: '500',
    // A re-send of an unanswered message would come only after a minute: well after these tests are done.
    WHATSAPP_RECONCILE_WAIT_MS: '60000',
  });
  beforeAll(() => {
    w.graph.reportSent = true;
  });

  const send = (conversationId: string, text: string, headers?: Record<string, string>) =>
    w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text }, headers && { headers });
  const sentEvent = (messageId: string) =>
    w.receiver.waitFor(() => w.eventsFor(messageId).some((e: { event: string }) => e.event === 'message.sent'));
  const messageCount = async (conversationId: string) =>
    (await w.org.api.get(`/api/v1/messaging/conversations/${conversationId}`)).body.data.messageCount as number;

  it('carries our message id to Meta as biz_opaque_callback_data (valid by Meta’s send schema)', async () => {
    const { conversationId } = await w.userWhoWrote();
    const res = await send(conversationId, 'Tagged');
    expect(res.status).toBe(201);
    const [request] = w.graph.sendsOf(res.body.data.messageId);
    expect(request.body).toMatchObject({ biz_opaque_callback_data: res.body.data.messageId });
    await sentEvent(res.body.data.messageId);
  });

  it(`paces sends from one number at the configured rate (${RATE_PER_SECOND}/s), across recipients`, async () => {
    const users = [];
    for (let i = 0; i < 8; i += 1) users.push(await w.userWhoWrote());
    const answers = await Promise.all(users.map((u, i) => send(u.conversationId, `Burst ${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const ids: string[] = answers.map((a) => a.body.data.messageId);
    // Those past the inline wait went from the queue: every one is taken once, by Meta's status webhook.
    for (const id of ids) await sentEvent(id);
    const received = ids.map((id) => w.graph.sendsOf(id)).map((r) => (expect(r).toHaveLength(1), r[0].receivedAt));
    received.sort((a, b) => a - b);
    // Eight evenly spaced slots span seven intervals; one of them may be eaten by a request's way to the fake.
    expect(received[7] - received[0]).toBeGreaterThanOrEqual(7 * SLOT_MS - TRANSPORT_MS);
  });

  it('paces sends to one recipient (burst of 2, then one per interval): the third is answered, then sent', async () => {
    const { conversationId } = await w.userWhoWrote();
    const first = await send(conversationId, 'One');
    const second = await send(conversationId, 'Two');
    const third = await send(conversationId, 'Three');
    const answeredAt = Date.now();
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    const [a, , c] = [first, second, third].map((r) => r.body.data.messageId as string);
    expect(w.graph.sendsOf(a)).toHaveLength(1);
    expect(w.graph.sendsOf(second.body.data.messageId)).toHaveLength(1);
    await sentEvent(c);
    const [sentThird] = w.graph.sendsOf(c);
    expect(sentThird.receivedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(sentThird.receivedAt - w.graph.sendsOf(a)[0].receivedAt).toBeGreaterThanOrEqual(
      RECIPIENT_INTERVAL_MS - TRANSPORT_MS,
    );
    expect(await messageCount(conversationId)).toBe(4);
  });

  it('131056 (pair rate): the retry waits out the recipient window, then the message is sent', async () => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(131056);
    const res = await send(conversationId, 'Pair rate');
    expect(res.status).toBe(201);
    const id = res.body.data.messageId;
    await sentEvent(id);
    const [refused, taken] = w.graph.sendsOf(id);
    expect(taken.receivedAt - refused.receivedAt).toBeGreaterThanOrEqual(RECIPIENT_INTERVAL_MS);
  });

  it.each([
    [131000, 'transient'],
    [131016, 'transient'],
    [1, 'transient'],
    [2, 'transient'],
    [4, 'rate'],
    [80007, 'rate'],
  ])('%d (%s): POST answers the stored message; the queue sends it again and message.sent fires', async (code) => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(code);
    const res = await send(conversationId, `After ${code}`);
    expect(res.status).toBe(201);
    const id = res.body.data.messageId;
    await sentEvent(id);
    expect(w.graph.sendsOf(id)).toHaveLength(2);
    expect((await w.messageOf(conversationId, id)).deliveryStatus).toBe('sent');
  });

  it.each([
    [131048, 'spam'],
    [131042, 'payment'],
    [133010, 'not registered'],
    [131031, 'locked'],
  ])(
    "%d (account: %s) is 502 MESSAGING_API_ERROR naming the account, with Meta's code; nothing stored",
    async (code) => {
      const { conversationId } = await w.userWhoWrote();
      w.graph.failNext(code);
      const res = await send(conversationId, `Refused ${code}`);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('MESSAGING_API_ERROR');
      expect(res.body.error.message).toContain(w.accountId);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'provider', providerCode: code })]);
      expect(await messageCount(conversationId)).toBe(1);
    },
  );

  it("131062 is 422 MESSAGE_UNDELIVERABLE with Meta's code; nothing stored", async () => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(131062);
    const res = await send(conversationId, 'Not to this user');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'MESSAGE_UNDELIVERABLE',
      details: [expect.objectContaining({ providerCode: 131062 })],
    });
    expect(await messageCount(conversationId)).toBe(1);
  });

  it('a send left unanswered is kept, reconciled by the status webhook naming it, and never sent twice', async () => {
    const { conversationId } = await w.userWhoWrote();
    w.graph.leaveUnanswered();
    const headers = { 'idempotency-key': `k-${randomUUID()}` };
    const res = await send(conversationId, 'Lost answer', headers);
    expect(res.status).toBe(201);
    const id = res.body.data.messageId;
    // Meta took it; its `sent` status (echoing our id) gives the message its provider id and fires message.sent.
    await sentEvent(id);
    expect((await w.messageOf(conversationId, id)).deliveryStatus).toBe('sent');
    // The waiting send job was woken by the webhook and ended: nothing is left that could send it again.
    const queue = w.t.app.get(JobQueue).queue(QueueName.Messaging);
    await eventually(async () => !(await queue.getJob(`send-${id}`)));
    expect(w.graph.sendsOf(id)).toHaveLength(1);
    const { rows } = await w.t.db.query('SELECT provider_message_id FROM messages WHERE id = $1', [id]);
    expect(rows[0].provider_message_id).toMatch(/^wamid\./);
    // The client's retry with the same key gets the same message, and nothing is sent again.
    const again = await send(conversationId, 'Lost answer', headers);
    expect(again.status).toBe(201);
    expect(again.body.data.messageId).toBe(id);
    expect(w.graph.sendsOf(id)).toHaveLength(1);
    expect(await messageCount(conversationId)).toBe(2);
  });
});
