import { JobQueue } from '../../src/infra/queue/job-queue';
import { JobName, QueueName } from '../../src/infra/queue/queue-names';
import {
  SEND_SWEEP_AFTER_MS,
  SEND_SWEEPS_MAX,
  SendMessageSweepJob,
} from '../../src/modules/messaging/send-message-sweep.job';
import { eventually } from './messaging-fixtures';
import { statusChange, webhookOf } from './whatsapp-webhooks';
import { PHONE_NUMBER_ID, WABA_ID, useWhatsAppWorld } from './whatsapp-world';

/** How long a rebuilt send waits for a status report naming its message before it is sent again. */
const RECONCILE_WAIT_MS = 5000;

/**
 * The send queue rebuilt from PostgreSQL against the strict fake Graph API: a message stored `accepted` whose send
 * job is gone (the process died, the enqueue failed) or gave up is found by the sweeper and sent from the request
 * kept on its row, once; the rebuilt send waits for a status report first; past the bound the message fails.
 */
describe('messaging: WhatsApp unsent messages swept from PostgreSQL (strict fake Graph API)', () => {
  const w = useWhatsAppWorld({
    // A retry from the queue comes only after this long: the tests strand the message by removing its job first.
    WHATSAPP_RETRY_BASE_MS: '30000',
    WHATSAPP_RECONCILE_WAIT_MS: String(RECONCILE_WAIT_MS),
  });
  beforeAll(() => {
    w.graph.reportSent = true;
  });

  const queue = () => w.t.app.get(JobQueue).queue(QueueName.Messaging);
  const sweep = () => w.t.app.get(SendMessageSweepJob).sweep();
  const eventOf = (messageId: string, event: string) =>
    w.receiver.waitFor(() => w.eventsFor(messageId).some((e: { event: string }) => e.event === event));
  const row = async (id: string) =>
    (
      await w.t.db.query(
        'SELECT delivery_status, provider_message_id, pending_send, send_sweeps FROM messages WHERE id = $1',
        [id],
      )
    ).rows[0];

  /**
   * A message whose first attempt Meta refused for now (131000, nothing taken), stored `accepted` with its retry
   * queued; the retry job is then removed, as when the process died or the queue lost it, and the row is made older
   * than the sweeper's bound.
   */
  async function stranded(): Promise<{ id: string; conversationId: string }> {
    const { conversationId } = await w.userWhoWrote();
    w.graph.failNext(131000);
    const res = await w.org.api.post('/api/v1/messaging/messages', { type: 'text', conversationId, text: 'Stranded' });
    expect(res.status).toBe(201);
    const id: string = res.body.data.messageId;
    const job = await queue().getJob(`send-${id}`);
    expect(job).toBeDefined();
    await job!.remove();
    await w.t.db.query('UPDATE messages SET timestamp = timestamp - make_interval(secs => $2) WHERE id = $1', [
      id,
      SEND_SWEEP_AFTER_MS / 1000 + 60,
    ]);
    return { id, conversationId };
  }

  it('keeps the Graph request on the row until Meta takes the message', async () => {
    const { id } = await stranded();
    const kept = await row(id);
    expect(kept).toMatchObject({ delivery_status: 'accepted', provider_message_id: null, send_sweeps: 0 });
    expect(kept.pending_send).toEqual({ phoneNumberId: PHONE_NUMBER_ID, body: w.graph.sendsOf(id)[0].body });
    await sweep();
    await eventOf(id, 'message.sent');
    expect(await row(id)).toMatchObject({ delivery_status: 'sent', pending_send: null, send_sweeps: 1 });
  });

  it('a message left accepted with no job is sent by the sweeper exactly once, and message.sent fires', async () => {
    const { id, conversationId } = await stranded();
    expect(w.graph.sendsOf(id)).toHaveLength(1);
    await sweep();
    await eventOf(id, 'message.sent');
    await eventually(async () => !(await queue().getJob(`send-${id}`)));
    // Swept again once its job is gone: the message is taken, nothing is left to send.
    await sweep();
    const [refused, taken] = w.graph.sendsOf(id);
    expect(w.graph.sendsOf(id)).toHaveLength(2);
    expect(taken.body).toEqual(refused.body);
    expect((await w.messageOf(conversationId, id)).deliveryStatus).toBe('sent');
    expect(w.eventsFor(id).filter((e: { event: string }) => e.event === 'message.sent')).toHaveLength(1);
  });

  it('a message whose send job gave up (its attempts spent on our side) is picked up', async () => {
    const { id } = await stranded();
    // A job of the message that fails on our side every time it runs (its request unreadable), one attempt only.
    const jobs = w.t.app.get(JobQueue);
    await jobs.add(
      JobName.SendMessage,
      { messageId: id, resume: null as never, attempt: 1, awaitingStatus: false },
      { jobId: `send-${id}`, attempts: 1, removeOnFail: 1000 },
    );
    await eventually(async () => (await (await queue().getJob(`send-${id}`))?.getState()) === 'failed');
    expect((await row(id)).delivery_status).toBe('accepted');
    await sweep();
    await eventOf(id, 'message.sent');
    expect(w.graph.sendsOf(id)).toHaveLength(2);
  });

  it('the rebuilt send waits for a status report: one naming the message inside the wait means no resend', async () => {
    const { id } = await stranded();
    await sweep();
    const waiting = await queue().getJob(`send-${id}`);
    expect(await waiting!.getState()).toBe('delayed');
    // Meta reports the message (its lost attempt was taken after all), naming it by our id.
    const to = (w.graph.sendsOf(id)[0].body as { to: string }).to;
    const status = await w.graph.sendWebhook(
      webhookOf(WABA_ID, statusChange(PHONE_NUMBER_ID, `wamid.swept.${id}`, 'sent', to, undefined, id)),
    );
    expect(status).toBe(200);
    await eventOf(id, 'message.sent');
    // The waiting job was woken by the report and ended without sending.
    await eventually(async () => !(await queue().getJob(`send-${id}`)));
    expect(w.graph.sendsOf(id)).toHaveLength(1);
    expect((await row(id)).provider_message_id).toBe(`wamid.swept.${id}`);
  });

  it(`a message rebuilt ${SEND_SWEEPS_MAX} times already fails with message.failed`, async () => {
    const { id, conversationId } = await stranded();
    await w.t.db.query('UPDATE messages SET send_sweeps = $2 WHERE id = $1', [id, SEND_SWEEPS_MAX]);
    await sweep();
    await eventOf(id, 'message.failed');
    const message = await w.messageOf(conversationId, id);
    expect(message.deliveryStatus).toBe('failed');
    expect(message.error).toMatchObject({ code: 0 });
    expect(await queue().getJob(`send-${id}`)).toBeUndefined();
    expect(w.graph.sendsOf(id)).toHaveLength(1);
  });
});
