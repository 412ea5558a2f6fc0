import { Metrics } from '../../../src/infra/metrics/metrics';
import { webhookId } from '../../../src/modules/webhooks/delivery/webhook-delivery-job-data';
import { CallsOrg, finished, waitForCall } from '../../calls/call-fixtures';
import { rows, startCampaign, waitForCampaign } from '../../dialer/campaign-fixtures';
import { TestApp } from '../../support/test-app';
import { waitUntil } from '../../support/wait-until';
import { WebhookReceiver } from '../../webhooks/support/receiver';

const CALL_EVENTS = ['call.started', 'call.ended', 'call.failed'];

/**
 * What every topology must carry (test/scale): contacts written, searched, changed and deleted; calls placed
 * and ended by whichever worker takes them; every call event delivered to a webhook exactly once; a campaign
 * dialled to completion. Fails with the first thing that goes wrong.
 */
export async function everyFeatureWorks(t: TestApp, org: CallsOrg, receiver: WebhookReceiver, calls = 20) {
  const hook = await org.api.post('/api/v1/webhooks', { url: `${receiver.url}/scale`, events: CALL_EVENTS });
  expect(hook.status).toBe(201);
  const endpointId: string = hook.body.data.id;

  // Contacts: create, read back at once, search, update, delete.
  const contacts = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      org.api.post('/api/v1/contacts', { title: `Scale Person ${i}`, phone: `+1415559${String(i).padStart(4, '0')}` }),
    ),
  );
  expect(contacts.map((r) => r.status)).toEqual(contacts.map(() => 201));
  const first = contacts[0].body.data.id as string;
  expect((await org.api.get(`/api/v1/contacts/${first}`)).status).toBe(200);
  const listed = await org.api.get('/api/v1/contacts', { query: { search: 'Scale Person' } });
  expect(listed.status).toBe(200);
  expect(listed.body.data).toHaveLength(10);
  const searched = await org.api.get('/api/v1/contacts/search', { query: { q: 'Scale Person' } });
  expect(searched.status).toBe(200);
  expect(searched.body.data).toHaveLength(10);
  expect((await org.api.patch(`/api/v1/contacts/${first}`, { title: 'Renamed' })).body.data.title).toBe('Renamed');
  expect((await org.api.delete(`/api/v1/contacts/${first}`)).status).toBe(204);
  expect((await org.api.get(`/api/v1/contacts/${first}`)).status).toBe(404);

  // Calls: every simulator outcome (last digit 0-9), each ended by whichever worker took it.
  const created = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      org.api.post('/api/v1/calls', { to: `+1415557${String(i).padStart(3, '0')}${i % 10}`, from: org.from }),
    ),
  );
  expect(created.filter((r) => r.status !== 201).map((r) => r.text)).toEqual([]);
  for (const r of created) await waitForCall(org, r.body.data.id, finished, 30_000);

  // A campaign dialled to the end.
  const campaign = await startCampaign(org, { audience: { rows: rows('+1415560', 10) }, maxConcurrent: 3 });
  const done = await waitForCampaign(org, campaign, (c) => c.status === 'completed', 30_000);
  expect(done.counts).toMatchObject({ total: 10, pending: 0, inProgress: 0, done: 10 });

  // Every call event of the organization reaches the receiver once: the delivered ids are exactly the recorded
  // events' (a retry would repeat an id, a loss miss one), and the log holds one success per event.
  const { rows: events } = await t.db.query(
    'SELECT event_id FROM outbox_events WHERE organization_id = $1 AND type = ANY($2)',
    [org.id, CALL_EVENTS],
  );
  expect(events.length).toBe((calls + 10) * 2);
  const expected = new Set(events.map((e) => webhookId(e.event_id, endpointId)));
  const delivered = () => receiver.on('/scale').map((r) => r.headers['x-webhook-id'] as string);
  await receiver.waitFor(() => new Set(delivered()).size >= expected.size, 30_000, 'every call event');
  expect(new Set(delivered())).toEqual(expected);
  // An attempt's log line is written after its receiver answered, so the receiver can hold every event a moment
  // before the log does: wait for the log to reach the count, then hold it to exactly one success per event.
  const successes = async () =>
    (
      await t.db.query(
        'SELECT count(*)::int AS n, count(DISTINCT webhook_id)::int AS ids FROM webhook_deliveries WHERE endpoint_id = $1 AND success',
        [endpointId],
      )
    ).rows[0] as { n: number; ids: number };
  const log = await waitUntil('every success in the delivery log', async () => {
    const counted = await successes();
    return counted.n >= expected.size && counted;
  });
  expect(log).toEqual({ n: expected.size, ids: expected.size });
}

/** Responses with a 5xx status this instance answered (its HTTP metrics), by route. */
export async function serverErrors(app: TestApp['app']): Promise<string[]> {
  const text = await app.get(Metrics).exposition();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_request_duration_seconds_count') && /status="5\d\d"/.test(line));
}
