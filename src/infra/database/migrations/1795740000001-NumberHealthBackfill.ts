import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills the number figures from the calls that ended before they were counted (docs/number-health.md, "Calls from
 * before the figures"): each number's days over the endpoint's longest history (90 days), its last 50 placed calls,
 * and its status by the rule of that page as it stands here (written out, so a later change of the rule never
 * changes what this migration did). Afterwards each call is counted as it ends, in the transaction that ends it.
 * Reads `calls` through its organization-number-time index, one pass per table.
 */
export class NumberHealthBackfill1795740000001 implements MigrationInterface {
  name = 'NumberHealthBackfill1795740000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // The calls each number placed that ended, in the number's organization (a number given up counts nowhere).
    const finished = `SELECT p.id AS phone_number_id, p.organization_id, c.livemode, c.status, c.answered_by,
                             c.duration_seconds, c.ended_at
                        FROM calls c JOIN phone_numbers p
                          ON p.organization_id = c.organization_id AND p.number = c.call_from
                       WHERE c.direction = 'outbound' AND c.status IN ('ended', 'error') AND c.ended_at IS NOT NULL`;
    await queryRunner.query(
      `INSERT INTO number_days (phone_number_id, livemode, day, placed, human, voicemail, not_answered, failed,
              connected, talk_seconds)
       SELECT phone_number_id, livemode, (ended_at AT TIME ZONE 'UTC')::date, count(*),
              count(*) FILTER (WHERE status = 'ended' AND answered_by = 'human'),
              count(*) FILTER (WHERE status = 'ended' AND answered_by = 'voicemail'),
              count(*) FILTER (WHERE status = 'ended' AND answered_by IS NULL),
              count(*) FILTER (WHERE status = 'error'),
              count(*) FILTER (WHERE status = 'ended' AND answered_by IS NOT NULL),
              COALESCE(sum(duration_seconds) FILTER (WHERE status = 'ended' AND answered_by IS NOT NULL), 0)
         FROM (${finished}) f
        WHERE ended_at >= (now() AT TIME ZONE 'UTC')::date - 89
        GROUP BY 1, 2, 3
       ON CONFLICT (phone_number_id, livemode, day) DO NOTHING`,
    );
    await queryRunner.query(
      `INSERT INTO number_health (phone_number_id, livemode, organization_id, recent, status)
       SELECT phone_number_id, livemode, organization_id, array_agg(human ORDER BY ended_at), 'healthy'
         FROM (SELECT phone_number_id, livemode, organization_id, ended_at,
                      status = 'ended' AND answered_by IS NOT DISTINCT FROM 'human' AS human,
                      row_number() OVER (PARTITION BY phone_number_id, livemode ORDER BY ended_at DESC) AS n
                 FROM (${finished}) f) last
        WHERE n <= 50
        GROUP BY 1, 2, 3
       ON CONFLICT (phone_number_id, livemode) DO NOTHING`,
    );
    // The status: the last 50 calls' answer rate against the 30-day rate (below half: degraded; below three
    // quarters: watch); healthy before 50 calls or when nobody ever answered.
    await queryRunner.query(
      `UPDATE number_health h SET status = CASE
                WHEN r.rate < b.rate / 2 THEN 'degraded' WHEN r.rate < b.rate * 3 / 4 THEN 'watch' ELSE 'healthy' END
         FROM (SELECT phone_number_id, livemode,
                      (SELECT count(*) FILTER (WHERE x) FROM unnest(recent) x)::float8 / 50 AS rate
                 FROM number_health WHERE cardinality(recent) >= 50) r,
              (SELECT phone_number_id, livemode, sum(human)::float8 / sum(placed) AS rate FROM number_days
                WHERE day > (now() AT TIME ZONE 'UTC')::date - 30
                GROUP BY 1, 2 HAVING sum(placed) > 0 AND sum(human) > 0) b
        WHERE h.phone_number_id = r.phone_number_id AND h.livemode = r.livemode
          AND b.phone_number_id = r.phone_number_id AND b.livemode = r.livemode`,
    );
  }

  public async down(): Promise<void> {
    // Backfilled rows and rows counted since are the same rows: nothing to take out that later calls did not add.
  }
}
