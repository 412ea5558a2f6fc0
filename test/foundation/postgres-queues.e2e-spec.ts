import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { QueueName } from '../../src/infra/queue/queue-names';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { inTransaction } from '../../src/infra/database/tx';

/** Smoke subset with no Redis at all: the queues run on BullMQ's PostgreSQL backend. */
describe('queues on PostgreSQL (no REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresQueues: true });
  });
  afterAll(() => t?.close());

  it('serves the API and reports readiness without Redis', async () => {
    const org = await createOrg(t);
    expect((await org.api.get('/api/v1/organization')).status).toBe(200);
    const ready = await t.anonymous.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.redis).toBeUndefined();
  });

  it('relays outbox events onto the PostgreSQL-backed queue and processes them', async () => {
    const org = await createOrg(t);
    const eventId = await inTransaction(t.app.get(DataSource), (m) =>
      t.app
        .get(OutboxService)
        .record(m, { organizationId: org.id, livemode: true }, 'contact.created', { contactId: randomUUID() }),
    );
    const queue = t.app.get(JobQueue).queue(QueueName.DomainEvents);
    const deadline = Date.now() + 15_000;
    let state: string | undefined;
    while (Date.now() < deadline) {
      const job = await queue.getJob(eventId);
      state = job ? await job.getState() : undefined;
      if (state === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('completed');
  });
});
