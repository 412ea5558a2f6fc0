import { TestApp, startTestApp } from '../support/test-app';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { HttpClient } from '../support/http';
import { CallsOrg, callingOrg, finished, waitForCall } from './call-fixtures';

const PER_INSTANCE = 50;

describe('calls: two app instances on one database and Redis', () => {
  let t: TestApp;
  let org: CallsOrg;
  let peer: HttpClient;
  beforeAll(async () => {
    t = await startTestApp();
    const second = await t.startPeer();
    org = await callingOrg(t, 10_000);
    peer = new HttpClient(second.baseUrl, { 'x-api-key': org.key });
  });
  afterAll(() => t?.close());

  it(`dispatches ${PER_INSTANCE} calls created on each instance exactly once`, async () => {
    // Last digits 0-6: every call is answered by the simulator.
    const body = (i: number) => ({ to: `+1415555${String(100 + i).padStart(3, '0')}${i % 7}`, from: org.from });
    const created = await Promise.all(
      Array.from({ length: PER_INSTANCE * 2 }, (_, i) => (i % 2 ? peer : org.api).post('/api/v1/calls', body(i))),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const ids = created.map((r) => r.body.data.id as string);
    for (const id of ids) await waitForCall(org, id, finished, 30_000);

    const { rows } = await t.db.query(
      `SELECT c.id, c.status, c.api_call_id,
              count(e.*) FILTER (WHERE e.type = 'call.started')::int AS started,
              count(e.*) FILTER (WHERE e.type IN ('call.ended', 'call.failed'))::int AS terminal
         FROM calls c LEFT JOIN outbox_events e ON e.data->>'callId' = c.id::text
        WHERE c.id = ANY($1) GROUP BY c.id`,
      [ids],
    );
    expect(rows).toHaveLength(PER_INSTANCE * 2);
    for (const row of rows) expect(row).toMatchObject({ status: 'ended', started: 1, terminal: 1 });
    expect(new Set(rows.map((r) => r.api_call_id)).size).toBe(PER_INSTANCE * 2);
    // Each placeCall schedules one simulator timeline under a fresh platform id: a second dispatch of any call
    // would leave jobs under a second id for it.
    const jobs = await t.app
      .get(JobQueue)
      .queue(QueueName.VoiceEvents)
      .getJobs(['completed', 'failed', 'delayed', 'waiting', 'active']);
    const platformIds = new Map<string, Set<string>>();
    for (const job of jobs) {
      const { callId, providerCallId } = job.data as { callId: string; providerCallId: string };
      platformIds.set(callId, (platformIds.get(callId) ?? new Set()).add(providerCallId));
    }
    for (const id of ids) expect(platformIds.get(id)?.size).toBe(1);
  });
});
