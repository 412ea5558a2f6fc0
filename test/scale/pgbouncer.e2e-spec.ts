import type { ChildProcess } from 'node:child_process';
import { forkWorker, sigkill } from '../prove/support/fork-worker';
import { callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/support/receiver';
import { PgBouncer, startPgBouncer } from './support/pgbouncer';
import { everyFeatureWorks, serverErrors } from './support/workload';

const PORT = 15432;

/**
 * DATABASE_URL pointing at a PgBouncer in transaction pooling mode (docs/operations.md, "PgBouncer"): requests
 * and jobs share pooled server connections, only what needs a session (migrations, the outbox relay's LISTEN,
 * the PostgreSQL queue backend) takes DATABASE_DIRECT_URL. A full instance and a worker in its own OS process
 * carry every feature with nothing lost or done twice, and no 5xx.
 */
describe('PgBouncer in transaction pooling mode', () => {
  let bouncer: PgBouncer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bouncer = await startPgBouncer(PORT);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await bouncer?.stop();
  });

  const throughBouncer = (url: string) => ({ DATABASE_URL: bouncer.via(url), DATABASE_DIRECT_URL: url });

  describe('queues on Redis, a worker in a second OS process', () => {
    let t: TestApp;
    let worker: ChildProcess;

    beforeAll(async () => {
      t = await startTestApp({
        databaseEnv: throughBouncer,
        env: { WEBHOOK_ALLOW_INSECURE: 'true', ROLES: 'api,worker,scheduler' },
      });
      // The simulator's timings of startTestApp, so calls the second process places end as fast as the first's.
      worker = await forkWorker(t, {
        ...throughBouncer(t.databaseUrl),
        WEBHOOK_ALLOW_INSECURE: 'true',
        SIMULATOR_RING_MS: '50',
        SIMULATOR_CALL_MS: '300',
        DATABASE_POOL_SIZE: '8',
      });
    });
    afterAll(async () => {
      if (worker) await sigkill(worker);
      await t?.close();
    });

    it('runs contacts, calls, webhooks (exactly once) and a campaign through the pooler', async () => {
      const org = await callingOrg(t, 10_000);
      await everyFeatureWorks(t, org, receiver);
      expect(await serverErrors(t.app)).toEqual([]);
      // The requests really went through the pooler: it holds this database's pool, in transaction mode.
      const pool = (await bouncer.pools()).find((p) => `/${p.database}` === new URL(t.databaseUrl).pathname);
      expect(pool).toMatchObject({ pool_mode: 'transaction' });
    }, 80_000);

    it('holds no session state on pooled server connections: no session advisory lock, no LISTEN through it', async () => {
      // pg_locks is the whole server's: the locks of this file's database only (other files run beside it).
      const { rows } = await t.db.query(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(rows[0].n).toBe(0);
      const { rows: listeners } = await t.db.query(
        `SELECT application_name FROM pg_stat_activity
          WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      // The outbox relay of each worker process listens on its own direct connection, named for it.
      expect(listeners.map((r) => r.application_name).sort()).toEqual(['outbox-relay', 'outbox-relay']);
    });
  });

  describe('queues on PostgreSQL (no REDIS_URL): the queue backend on the direct URL', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp({ postgresQueues: true, databaseEnv: throughBouncer });
    });
    afterAll(async () => t?.close());

    it('places and ends calls', async () => {
      const org = await callingOrg(t, 1000);
      const created = await Promise.all(
        [0, 5, 9].map((d) => org.api.post('/api/v1/calls', { to: `+141555800${d}0`, from: org.from })),
      );
      expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
      for (const r of created) await waitForCall(org, r.body.data.id, finished, 20_000);
      expect(await serverErrors(t.app)).toEqual([]);
    }, 40_000);
  });
});
