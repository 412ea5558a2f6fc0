import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { OutboxRelayService } from '../../src/modules/outbox/outbox-relay.service';
import type { ContactEventPayload } from '../../src/modules/outbox/event-payloads';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { TestApp, startTestApp } from '../support/test-app';
import { inTransaction, Tx } from '../../src/infra/database/tx';

const ORG = '01a20000-0000-7000-8000-000000000001';

async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('event outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    // API role only: nothing relays in this process, like a relay that died right after the commit.
    t = await startTestApp({ env: { ROLES: 'api' } });
  });
  afterAll(() => t?.close());

  const record = (type: 'contact.created' | 'contact.updated', data: ContactEventPayload) =>
    inTransaction(t.app.get(DataSource), (m) =>
      t.app.get(OutboxService).record(m, { organizationId: ORG, livemode: true }, type, data),
    );
  const queue = () => t.app.get(JobQueue).queue(QueueName.DomainEvents);

  it('records nothing when the surrounding transaction rolls back', async () => {
    const before = await t.db.query('SELECT count(*)::int AS n FROM outbox_events');
    await expect(
      inTransaction(t.app.get(DataSource), async (m) => {
        await t.app
          .get(OutboxService)
          .record(m, { organizationId: ORG, livemode: true }, 'contact.created', { contactId: randomUUID() });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await t.db.query('SELECT count(*)::int AS n FROM outbox_events');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses to record outside a transaction', async () => {
    // The type refuses a bare manager; a caller that casts one is still refused when it runs.
    await expect(
      t.app
        .get(OutboxService)
        .record(t.app.get(DataSource).manager as Tx, { organizationId: ORG, livemode: true }, 'contact.created', {
          contactId: randomUUID(),
        }),
    ).rejects.toThrow(/inside a transaction/);
  });

  it('loses nothing and duplicates nothing when the relay dies between enqueue and commit', async () => {
    const relay = t.app.get(OutboxRelayService);
    const eventId = await record('contact.updated', { contactId: randomUUID() });
    await expect(
      relay.relayBatch(() => {
        throw new Error('killed after enqueue');
      }),
    ).rejects.toThrow('killed after enqueue');
    // Enqueued but not marked (the transaction rolled back): the row stays pending and is relayed again.
    // (This runs before any worker process exists, so only this test's relay calls touch the outbox.)
    expect(await queue().getJob(eventId)).toBeDefined();
    await until(async () => {
      await relay.relayBatch();
      const r = await t.db.query('SELECT relayed_at FROM outbox_events WHERE event_id = $1', [eventId]);
      return r.rows[0].relayed_at !== null;
    });
    // The re-enqueue used the same job id, so the queue holds the event once.
    const jobs = await queue().getJobs(['waiting', 'active', 'completed', 'delayed', 'failed']);
    expect(jobs.filter((j) => j.data.eventId === eventId)).toHaveLength(1);
  });

  it('delivers an event committed while no relay ran, exactly as recorded, once a worker starts', async () => {
    const contactId = randomUUID();
    const eventId = await record('contact.created', { contactId });
    // Nothing relays: no relay of any process listens on this database (the api role starts none).
    const relays = await t.db.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'outbox-relay'`,
    );
    expect(relays.rowCount).toBe(0);
    expect(await queue().getJob(eventId)).toBeUndefined();
    const unrelayed = await t.db.query('SELECT relayed_at FROM outbox_events WHERE event_id = $1', [eventId]);
    expect(unrelayed.rows[0].relayed_at).toBeNull();

    await t.startPeer({ ROLES: 'worker' });
    const job = await until(() => queue().getJob(eventId));
    // The job is a reference (docs/contracts/bounds.md); the payload stays in the outbox row, exactly as recorded.
    expect(job.data).toEqual({ eventId, organizationId: ORG, type: 'contact.created', occurredAt: expect.any(String) });
    const stored = await t.db.query('SELECT data FROM outbox_events WHERE event_id = $1', [eventId]);
    expect(stored.rows[0].data).toEqual({ contactId });
    await until(async () => {
      const { rows } = await t.db.query('SELECT relayed_at FROM outbox_events WHERE event_id = $1', [eventId]);
      return rows[0].relayed_at !== null;
    });
  });
});
