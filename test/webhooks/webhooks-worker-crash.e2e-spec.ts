import { ChildProcess } from 'node:child_process';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { forkWorker } from '../prove/support/fork-worker';
import { recordEvent } from './support/events';
import { WebhookReceiver } from './support/receiver';

const env = {
  WEBHOOK_ALLOW_INSECURE: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '100,200,300',
  // Longer than the test: the held first attempt must still be in flight when its worker dies.
  WEBHOOK_TIMEOUT_MS: '120000',
  // The killed worker's lease on the delivery job lapses within 5 s (not BullMQ's 30 s), and the fresh worker looks
  // for lapsed leases every second (not every 30 s): the redelivery comes seconds after the kill, not a minute.
  QUEUE_LOCK_DURATION_MS: '5000',
  QUEUE_STALLED_INTERVAL_MS: '1000',
};

describe('webhook delivery survives a worker killed mid-delivery', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // The API process runs no worker, so the forked process is the only one that can take the delivery.
    t = await startTestApp({ env: { ...env, ROLES: 'api,scheduler' } });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await t?.close();
    await receiver?.stop();
  });

  it('redelivers with the same X-Webhook-Id after SIGKILL of the worker holding the request', async () => {
    worker = await forkWorker(t, env);
    const org = await createOrg(t);
    receiver.script('/crash', ['hold', 200]);
    const hook = (await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/crash`, events: ['contact.created'] }))
      .body.data;
    await recordEvent(t, org.id, 'contact.created', 'c-crash');
    await receiver.waitFor(() => receiver.on('/crash').length === 1, 30000, 'first attempt');

    worker.kill('SIGKILL');
    await new Promise((resolve) => worker!.once('exit', resolve));
    worker = undefined;
    // A fresh worker finds the orphaned job once its lock expires (BullMQ's stalled-job check).
    const peer = await t.startPeer({ ROLES: 'worker' });
    await receiver.waitFor(() => receiver.on('/crash').length === 2, 100_000, 'redelivery');

    const [first, again] = receiver.on('/crash');
    expect(again.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
    expect(JSON.parse(again.rawBody)).toEqual(JSON.parse(first.rawBody));
    const deadline = Date.now() + 10000;
    let rows: Array<{ attempt: number; success: boolean }> = [];
    while (Date.now() < deadline) {
      rows = (await t.db.query('SELECT attempt, success FROM webhook_deliveries WHERE endpoint_id = $1', [hook.id]))
        .rows;
      if (rows.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The killed attempt left no log row (it never finished); the redelivery is logged as the same attempt 1.
    expect(rows).toEqual([{ attempt: 1, success: true }]);
    await peer.app.close();
  }, 150_000);
});
