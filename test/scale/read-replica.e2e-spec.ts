import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Metrics } from '../../src/infra/metrics/metrics';
import { REPLICA_CHECK_MS } from '../../src/infra/database/replica-reads';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { HttpClient } from '../support/http';
import { TestApp, startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { ReplicaPair, startReplicaPair } from './support/replica-pair';
import { everyFeatureWorks, serverErrors } from './support/workload';

const READ_AFTER_WRITE_MS = 1000;

/** A metric's value in an instance's exposition (0 when never recorded). */
async function metric(app: NestFastifyApplication, series: string): Promise<number> {
  const line = (await app.get(Metrics).exposition()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/**
 * DATABASE_READ_URL on a streaming replica (docs/operations.md, "Read replicas"): two full instances (as api x2
 * behind a load balancer) serve GET routes from the replica; a key's reads right after its own write go to the
 * primary, on either instance; a lagging or stopped replica hands its reads to the primary; no 5xx throughout.
 */
describe('read replica', () => {
  let pair: ReplicaPair;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let second: { app: NestFastifyApplication; baseUrl: string };
  /** An instance that tolerates only 1 s of replay lag (the others 60 s, so a paused replay still serves). */
  let strict: { app: NestFastifyApplication; baseUrl: string };
  let org: CallsOrg;
  /** Another key of the same organization: it never writes, so it always reads where the replica routing says. */
  let reader: (baseUrl: string) => HttpClient;

  beforeAll(async () => {
    pair = await startReplicaPair(15434, 15435);
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({
      server: pair.primaryUrl,
      // The app migrates the new database on the primary; the replica must have replayed its creation first.
      databaseEnv: async (url) => {
        await pair.caughtUp();
        return {
          DATABASE_READ_URL: pair.onReplica(url),
          READ_AFTER_WRITE_MS: String(READ_AFTER_WRITE_MS),
          DATABASE_READ_MAX_LAG_MS: '60000',
        };
      },
      env: { WEBHOOK_ALLOW_INSECURE: 'true' },
    });
    second = await t.startPeer();
    strict = await t.startPeer({ ROLES: 'api', DATABASE_READ_MAX_LAG_MS: '1000' });
    org = await callingOrg(t, 10_000);
    const key = await org.keyWith(['contacts:read', 'calls:read']);
    reader = (baseUrl) => new HttpClient(baseUrl, { 'x-api-key': key.key });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    pair?.stop();
  });

  it('carries every feature with reads on the replica, and reads a write back at once', async () => {
    await everyFeatureWorks(t, org, receiver);
    // On a fast machine every read of the workload's key can fall within its own read-after-write windows (its
    // calls and campaign end within a second of their writes); a key that never writes reads the replica.
    expect((await reader(t.baseUrl).get('/api/v1/contacts')).status).toBe(200);
    expect(await metric(t.app, 'vc_db_replica_reads_total')).toBeGreaterThan(0);
    for (const app of [t.app, second.app, strict.app]) expect(await serverErrors(app)).toEqual([]);
  }, 80_000);

  it("sends a key's reads to the primary for READ_AFTER_WRITE_MS after its write, on every instance", async () => {
    await pair.caughtUp();
    await pair.replicaSql('SELECT pg_wal_replay_pause()');
    try {
      const created = await org.api.post('/api/v1/contacts', { title: 'Paused', phone: '+14155550199' });
      expect(created.status).toBe(201);
      const path = `/api/v1/contacts/${created.body.data.id}`;
      const before = await metric(t.app, 'vc_db_replica_reads_total');
      // The writer, on the other instance at once: read-your-writes holds across processes.
      expect((await new HttpClient(second.baseUrl, { 'x-api-key': org.key }).get(path)).status).toBe(200);
      // A key that did not write reads the replica, which has not replayed the insert.
      expect((await reader(t.baseUrl).get(path)).status).toBe(404);
      expect(await metric(t.app, 'vc_db_replica_reads_total')).toBeGreaterThan(before);
      // Once the window has passed, the writer reads the replica too: the stale replica does not have the contact.
      await waitUntil('the writer to read the replica', async () => {
        const status = (await org.api.get(path)).status;
        expect([200, 404]).toContain(status);
        return status === 404;
      });
      expect(await metric(t.app, 'vc_db_replica_fallbacks_total{reason="read_after_write"}')).toBeGreaterThan(0);
    } finally {
      await pair.replicaSql('SELECT pg_wal_replay_resume()');
    }
    await pair.caughtUp();
    const listed = await reader(t.baseUrl).get('/api/v1/contacts', { query: { search: 'Paused' } });
    expect(listed.body.data.map((c: { title: string }) => c.title)).toEqual(['Paused']);
  }, 30_000);

  it('hands the reads of a replica lagging past DATABASE_READ_MAX_LAG_MS to the primary', async () => {
    // The strict instance's last measurement may still be of the previous test's paused replay (past 1 s): wait for
    // one of the replica caught up, so that the lag past 1 s awaited below is measured during this test's pause.
    // Otherwise a check right after that stale reading, of a pause only just begun, makes the replica usable again.
    await waitUntil('the strict instance to measure the replica caught up', async () => {
      const lag = await metric(strict.app, 'vc_db_replica_lag_seconds');
      return lag >= 0 && lag <= 1;
    });
    await pair.replicaSql('SELECT pg_wal_replay_pause()');
    try {
      const created = await org.api.post('/api/v1/contacts', { title: 'Lagging', phone: '+14155550198' });
      const path = `/api/v1/contacts/${created.body.data.id}`;
      // Lag grows past 1 s, and a check of the strict instance measures it.
      await waitUntil(
        'the strict instance to measure a lag past 1 s',
        async () => (await metric(strict.app, 'vc_db_replica_lag_seconds')) > 1,
      );
      expect((await reader(strict.baseUrl).get(path)).status).toBe(200);
      expect(await metric(strict.app, 'vc_db_replica_fallbacks_total{reason="lagging"}')).toBeGreaterThan(0);
      expect(await metric(strict.app, 'vc_db_replica_lag_seconds')).toBeGreaterThan(1);
      // The tolerant instance still reads the (stale) replica.
      expect((await reader(t.baseUrl).get(path)).status).toBe(404);
    } finally {
      await pair.replicaSql('SELECT pg_wal_replay_resume()');
    }
  }, 30_000);

  it('hands the reads of a stopped replica to the primary, without a 5xx', async () => {
    const created = await org.api.post('/api/v1/contacts', { title: 'Down', phone: '+14155550197' });
    await pair.caughtUp();
    pair.stopReplica();
    const path = `/api/v1/contacts/${created.body.data.id}`;
    // At once (the statement that fails on the replica runs again on the primary), and after the next check.
    expect((await reader(t.baseUrl).get(path)).status).toBe(200);
    expect((await reader(t.baseUrl).get('/api/v1/contacts')).status).toBe(200);
    // A check finds the replica gone (its lag gauge at -1); reads after it go to the primary as well.
    await waitUntil(
      'a check to find the replica gone',
      async () => (await metric(t.app, 'vc_db_replica_lag_seconds')) === -1,
      2 * REPLICA_CHECK_MS + 15_000,
    );
    expect((await reader(t.baseUrl).get(path)).status).toBe(200);
    expect(await metric(t.app, 'vc_db_replica_fallbacks_total{reason="unavailable"}')).toBeGreaterThan(0);
    expect(await metric(t.app, 'vc_db_replica_lag_seconds')).toBe(-1);
    for (const app of [t.app, second.app, strict.app]) expect(await serverErrors(app)).toEqual([]);
  }, 30_000);
});
