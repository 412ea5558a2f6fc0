import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NumberHealthBackfill1795740000001 } from '../../src/infra/database/migrations/1795740000001-NumberHealthBackfill';
import { inTransaction } from '../../src/infra/database/tx';
import { NumberHealthRepository } from '../../src/modules/number-health/number-health.repository';
import {
  FinishedOutboundCall,
  RecordNumberOutcomeCommand,
} from '../../src/modules/number-health/record-number-outcome.command';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../../src/modules/outbox/outbox-wakeup';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The number-health backfill against PostgreSQL: calls that ended before the figures were counted give the same
 * days, last-50 window and status as counting each of them as it ended (RecordNumberOutcomeCommand) does.
 */
describe('NumberHealthBackfill migration (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
  });
  afterAll(() => close());

  const MINUTE = 60_000;
  const DAY = 24 * 60 * MINUTE;
  /**
   * 100 calls ten days ago, mostly answered, then 50 in the last hour, mostly not: a degraded number. Relative to
   * one `now` for both ways of counting: the older calls span 100 minutes, which can cross a midnight, and a second
   * clock reading seconds later would move a call to the next day on one side only.
   */
  function history(livemode: boolean, now: number): Array<Omit<FinishedOutboundCall, 'organizationId' | 'callFrom'>> {
    const older = Array.from({ length: 100 }, (_, i) => ({
      livemode,
      status: (i < 5 ? 'error' : 'ended') as 'ended' | 'error',
      answeredBy: i < 10 ? null : i < 20 ? 'voicemail' : 'human',
      durationSeconds: i < 10 ? null : 30 + i,
      endedAt: new Date(now - 10 * DAY + i * MINUTE),
    }));
    const recent = Array.from({ length: 50 }, (_, i) => ({
      livemode,
      status: 'ended' as const,
      answeredBy: i % 5 === 0 ? 'human' : null,
      durationSeconds: i % 5 === 0 ? 12.5 : 0,
      endedAt: new Date(now - 60 * MINUTE + i * 1000),
    }));
    return [...older, ...recent];
  }

  async function number(organizationId: string, value: string): Promise<string> {
    const id = randomUUID();
    await dataSource.query(`INSERT INTO phone_numbers (id, organization_id, number) VALUES ($1, $2, $3)`, [
      id,
      organizationId,
      value,
    ]);
    return id;
  }

  const figures = async (phoneNumberId: string) => ({
    days: await dataSource.query(
      `SELECT livemode, day::text, placed, human, voicemail, not_answered, failed, connected, talk_seconds
         FROM number_days WHERE phone_number_id = $1 ORDER BY livemode, day`,
      [phoneNumberId],
    ),
    health: await dataSource.query(
      `SELECT livemode, recent, status FROM number_health WHERE phone_number_id = $1 ORDER BY livemode`,
      [phoneNumberId],
    ),
  });

  it('gives each number the figures counting its calls one by one as they ended gives', async () => {
    // Counted live: each call through the command, in the order the calls ended.
    const started = Date.now();
    const calls = [...history(true, started), ...history(false, started).slice(-3)];
    const liveOrg = randomUUID();
    const counted = await number(liveOrg, '+14155550910');
    const record = new RecordNumberOutcomeCommand(
      new NumberHealthRepository(dataSource),
      new OutboxService(new OutboxEventsRepository(dataSource), new OutboxWakeup(dataSource)),
    );
    for (const call of calls) {
      await inTransaction(dataSource, (tx) =>
        record.execute(tx, { ...call, organizationId: liveOrg, callFrom: '+14155550910' }),
      );
    }

    // The same calls stored before the figures existed, with calls that count nowhere beside them.
    const org = randomUUID();
    const backfilled = await number(org, '+14155550911');
    const insert = (values: Record<string, unknown>) =>
      dataSource.query(
        `INSERT INTO calls (id, organization_id, livemode, status, direction, call_from, call_to, answered_by,
                            duration_seconds, ended_at)
         VALUES ($1, $2, $3, $4, $5, $6, '+14155550999', $7, $8, $9)`,
        [
          randomUUID(),
          values.organizationId ?? org,
          values.livemode,
          values.status,
          values.direction ?? 'outbound',
          values.callFrom ?? '+14155550911',
          values.answeredBy,
          values.durationSeconds,
          values.endedAt,
        ],
      );
    for (const call of calls) await insert(call);
    const now = new Date();
    await insert({ livemode: true, status: 'ended', direction: 'inbound', answeredBy: 'human', endedAt: now });
    await insert({ livemode: true, status: 'processing', answeredBy: null, endedAt: null });
    await insert({ livemode: true, status: 'ended', answeredBy: 'human', callFrom: '+14155550912', endedAt: now });
    await insert({ livemode: true, status: 'ended', answeredBy: 'human', organizationId: randomUUID(), endedAt: now });

    const runner = dataSource.createQueryRunner();
    try {
      await new NumberHealthBackfill1795740000001().up(runner);
    } finally {
      await runner.release();
    }

    const expected = await figures(counted);
    expect(expected.health.map((h: { status: string }) => h.status)).toEqual(['healthy', 'degraded']);
    expect(await figures(backfilled)).toEqual(expected);
    // Only the organization's own numbers got rows.
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM number_health`);
    expect(n).toBe(4);
  });
});
