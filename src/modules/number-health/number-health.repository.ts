import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tx } from '../../infra/database/tx';
import { AnswerCounts, BASELINE_DAYS, RECENT_WINDOW } from './health-status';
import type { NumberHealthStatus } from './number-health.entity';

/** How one ended call counts for its number (each field 0 or 1, `talkSeconds` its talk time when connected). */
export interface CallTally {
  human: number;
  voicemail: number;
  notAnswered: number;
  failed: number;
  connected: number;
  talkSeconds: number;
}

/** A number's recent calls after more were counted, the status they last gave it, and its baseline. */
export interface RecordedCalls {
  phoneNumberId: string;
  /** The last RECENT_WINDOW calls once the last of these was counted, oldest first. */
  recent: boolean[];
  status: NumberHealthStatus;
  /** The number's calls and answers over the last BASELINE_DAYS UTC days once the last of these was counted. */
  baseline: AnswerCounts;
  /** The UTC days (YYYY-MM-DD) of these calls that count in that baseline. */
  baselineDays: string[];
}

/** A finished call as its number counts it. */
export interface CountedCall {
  endedAt: Date;
  tally: CallTally;
}

export interface NumberDayRow extends CallTally {
  day: string;
  placed: number;
}

export interface NumberHealthRead {
  /** E.164 */
  number: string;
  status: NumberHealthStatus;
  days: NumberDayRow[];
}

/**
 * The SQL of `number_days` and `number_health`. Every count moves by arithmetic in an upsert, so calls ending at
 * once in several processes all count; the `number_health` row is locked first by each recording, which orders
 * them per number (the status decided after it sees every earlier call).
 */
@Injectable()
export class NumberHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The number's recent calls and status, its row locked until `tx` ends (created, empty, on its first call); null
   * when the organization has no such number. Read before recordMany when several calls count at once, since
   * each call's own status needs the window as that call left it.
   */
  async lockRecent(
    tx: Tx,
    world: { organizationId: string; livemode: boolean },
    number: string,
  ): Promise<{ recent: boolean[]; status: NumberHealthStatus } | null> {
    const select = async () =>
      (
        (await tx.query(
          `SELECT h.recent, h.status FROM number_health h
           JOIN phone_numbers p ON p.id = h.phone_number_id AND p.organization_id = $1 AND p.number = $2
          WHERE h.livemode = $3
            FOR UPDATE OF h`,
          [world.organizationId, number, world.livemode],
        )) as { recent: boolean[]; status: NumberHealthStatus }[]
      )[0] ?? null;
    const row = await select();
    if (row) return row;
    // The number's first calls in this world: its row made first (a racing creator wins harmlessly), then locked.
    await tx.query(
      `INSERT INTO number_health (phone_number_id, livemode, organization_id)
       SELECT p.id, $3, p.organization_id FROM phone_numbers p WHERE p.organization_id = $1 AND p.number = $2
       ON CONFLICT (phone_number_id, livemode) DO NOTHING`,
      [world.organizationId, number, world.livemode],
    );
    return select();
  }

  /**
   * Counts finished calls of the organization's number `number`, in order, in one statement: appends them to the
   * number's recent calls (keeping the last RECENT_WINDOW), which locks that row until `tx` ends, adds them to
   * their days (UTC), and reads the number's calls and answers over the last BASELINE_DAYS UTC days (today
   * included); null when the organization has no such number. One statement whatever the number of calls,
   * because every call of a number waits for that row lock and holds it until its commit: each round trip made
   * under it is one more for every call of the number (all of a campaign's calls may come from one number). The
   * calls' own days are read from their upsert, after the lock, so they include every earlier call of those days;
   * the other days of the window no longer change.
   */
  async recordMany(
    tx: Tx,
    world: { organizationId: string; livemode: boolean },
    number: string,
    calls: readonly CountedCall[],
  ): Promise<RecordedCalls | null> {
    const rows: RecordedCalls[] = await tx.query(
      `WITH counted AS (
         SELECT (c.ended_at AT TIME ZONE 'UTC')::date AS day, c.human, c.voicemail, c.not_answered, c.failed,
                c.connected, c.talk_seconds
           FROM jsonb_to_recordset($4::jsonb) AS c(ended_at timestamptz, human int, voicemail int, not_answered int,
                failed int, connected int, talk_seconds double precision)),
       recent AS (
         INSERT INTO number_health (phone_number_id, livemode, organization_id, recent)
         SELECT p.id, $3, p.organization_id, $5::boolean[] FROM phone_numbers p
          WHERE p.organization_id = $1 AND p.number = $2
         ON CONFLICT (phone_number_id, livemode) DO UPDATE
            SET recent = (number_health.recent || EXCLUDED.recent)
                  [greatest(1, cardinality(number_health.recent) + cardinality(EXCLUDED.recent) + 1 - ${RECENT_WINDOW}):],
                updated_at = now()
         RETURNING phone_number_id, recent, status),
       days AS (
         INSERT INTO number_days AS d (phone_number_id, livemode, day, placed, human, voicemail, not_answered, failed,
                connected, talk_seconds)
         SELECT r.phone_number_id, $3, c.day, count(*), sum(c.human), sum(c.voicemail), sum(c.not_answered),
                sum(c.failed), sum(c.connected), sum(c.talk_seconds)
           FROM recent r, counted c
          GROUP BY r.phone_number_id, c.day
         ON CONFLICT (phone_number_id, livemode, day) DO UPDATE
            SET placed = d.placed + EXCLUDED.placed, human = d.human + EXCLUDED.human,
                voicemail = d.voicemail + EXCLUDED.voicemail, not_answered = d.not_answered + EXCLUDED.not_answered,
                failed = d.failed + EXCLUDED.failed, connected = d.connected + EXCLUDED.connected,
                talk_seconds = d.talk_seconds + EXCLUDED.talk_seconds
         RETURNING d.day, d.placed, d.human, d.day > (now() AT TIME ZONE 'UTC')::date - ${BASELINE_DAYS} AS in_window),
       other_days AS (
         SELECT COALESCE(sum(n.placed), 0)::int AS placed, COALESCE(sum(n.human), 0)::int AS human
           FROM number_days n, recent r
          WHERE n.phone_number_id = r.phone_number_id AND n.livemode = $3 AND n.day NOT IN (SELECT day FROM days)
            AND n.day > (now() AT TIME ZONE 'UTC')::date - ${BASELINE_DAYS}),
       own_days AS (
         SELECT COALESCE(sum(placed), 0)::int AS placed, COALESCE(sum(human), 0)::int AS human,
                COALESCE(json_agg(to_char(day, 'YYYY-MM-DD')), '[]') AS days
           FROM days WHERE in_window)
       SELECT r.phone_number_id AS "phoneNumberId", r.recent, r.status,
              json_build_object('placed', o.placed + t.placed, 'human', o.human + t.human) AS baseline,
              t.days AS "baselineDays"
         FROM recent r, other_days o, own_days t`,
      [
        world.organizationId,
        number,
        world.livemode,
        JSON.stringify(
          calls.map(({ endedAt, tally }) => ({
            ended_at: endedAt.toISOString(),
            human: tally.human,
            voicemail: tally.voicemail,
            not_answered: tally.notAnswered,
            failed: tally.failed,
            connected: tally.connected,
            talk_seconds: tally.talkSeconds,
          })),
        ),
        // Calls beyond the window would leave it within this statement: only the last RECENT_WINDOW are appended.
        calls.slice(-RECENT_WINDOW).map((c) => c.tally.human === 1),
      ],
    );
    return rows[0] ?? null;
  }

  /** Moves the number's status, under the row lock `record` took. */
  async setStatus(tx: Tx, phoneNumberId: string, livemode: boolean, status: NumberHealthStatus): Promise<void> {
    await tx.query(`UPDATE number_health SET status = $3 WHERE phone_number_id = $1 AND livemode = $2`, [
      phoneNumberId,
      livemode,
      status,
    ]);
  }

  /** Which of the organization's `numbers` (E.164) are `degraded` in the world. */
  async degradedAmong(
    m: EntityManager,
    world: { organizationId: string; livemode: boolean },
    numbers: readonly string[],
  ): Promise<Set<string>> {
    const rows: Array<{ number: string }> = await m.query(
      `SELECT p.number FROM phone_numbers p
         JOIN number_health h ON h.phone_number_id = p.id AND h.livemode = $2 AND h.status = 'degraded'
        WHERE p.organization_id = $1 AND p.number = ANY($3)`,
      [world.organizationId, world.livemode, [...numbers]],
    );
    return new Set(rows.map((r) => r.number));
  }

  /**
   * The organization's number with its status in a world (`healthy` before its first call there) and its days with
   * calls among the last `days` UTC days (today included), oldest first; null when the organization has no such
   * number. One statement: the endpoint's whole read, a primary-key range of at most 90 day rows.
   */
  async read(
    organizationId: string,
    phoneNumberId: string,
    livemode: boolean,
    days: number,
  ): Promise<NumberHealthRead | null> {
    const rows: NumberHealthRead[] = await this.dataSource.query(
      `SELECT p.number, COALESCE(h.status, 'healthy') AS status,
              COALESCE((SELECT json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'placed', d.placed,
                                  'human', d.human, 'voicemail', d.voicemail, 'notAnswered', d.not_answered,
                                  'failed', d.failed, 'connected', d.connected, 'talkSeconds', d.talk_seconds)
                                  ORDER BY d.day)
                          FROM number_days d
                         WHERE d.phone_number_id = p.id AND d.livemode = $3
                           AND d.day > (now() AT TIME ZONE 'UTC')::date - $4::int), '[]'::json) AS days
         FROM phone_numbers p
         LEFT JOIN number_health h ON h.phone_number_id = p.id AND h.livemode = $3
        WHERE p.id = $1 AND p.organization_id = $2`,
      [phoneNumberId, organizationId, livemode, days],
    );
    return rows[0] ?? null;
  }
}
