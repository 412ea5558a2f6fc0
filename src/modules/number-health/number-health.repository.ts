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

/** A number's recent calls after one more was counted, the status they last gave it, and its baseline. */
export interface RecordedCall {
  phoneNumberId: string;
  recent: boolean[];
  status: NumberHealthStatus;
  baseline: AnswerCounts;
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
   * Counts one finished call for the organization's number `number`, in one statement: appends it to the number's
   * recent calls (keeping the last RECENT_WINDOW), which locks that row until `tx` ends, adds it to its day (UTC),
   * and reads the number's calls and answers over the last BASELINE_DAYS UTC days (today included); null when the
   * organization has no such number. One statement, because every call of a number waits for that row lock and
   * holds it until its commit: each round trip made under it is one more for every call of the number (all of a
   * campaign's calls may come from one number). The call's own day is read from its upsert, after the lock, so
   * it includes every earlier call of that day; the other days of the window no longer change.
   */
  async record(
    tx: Tx,
    world: { organizationId: string; livemode: boolean },
    number: string,
    endedAt: Date,
    tally: CallTally,
  ): Promise<RecordedCall | null> {
    const rows: RecordedCall[] = await tx.query(
      `WITH recent AS (
         INSERT INTO number_health (phone_number_id, livemode, organization_id, recent)
         SELECT p.id, $3, p.organization_id, ARRAY[$4::int = 1] FROM phone_numbers p
          WHERE p.organization_id = $1 AND p.number = $2
         ON CONFLICT (phone_number_id, livemode) DO UPDATE
            SET recent = (number_health.recent || EXCLUDED.recent)
                  [greatest(1, cardinality(number_health.recent) + 2 - ${RECENT_WINDOW}):],
                updated_at = now()
         RETURNING phone_number_id, recent, status),
       today AS (
         INSERT INTO number_days AS d (phone_number_id, livemode, day, placed, human, voicemail, not_answered, failed,
                connected, talk_seconds)
         SELECT r.phone_number_id, $3, ($5::timestamptz AT TIME ZONE 'UTC')::date, 1, $4, $6, $7, $8, $9, $10
           FROM recent r
         ON CONFLICT (phone_number_id, livemode, day) DO UPDATE
            SET placed = d.placed + 1, human = d.human + EXCLUDED.human, voicemail = d.voicemail + EXCLUDED.voicemail,
                not_answered = d.not_answered + EXCLUDED.not_answered, failed = d.failed + EXCLUDED.failed,
                connected = d.connected + EXCLUDED.connected, talk_seconds = d.talk_seconds + EXCLUDED.talk_seconds
         RETURNING d.day, d.placed, d.human, d.day > (now() AT TIME ZONE 'UTC')::date - ${BASELINE_DAYS} AS in_window),
       other_days AS (
         SELECT COALESCE(sum(n.placed), 0)::int AS placed, COALESCE(sum(n.human), 0)::int AS human
           FROM number_days n, recent r, today t
          WHERE n.phone_number_id = r.phone_number_id AND n.livemode = $3 AND n.day <> t.day
            AND n.day > (now() AT TIME ZONE 'UTC')::date - ${BASELINE_DAYS})
       SELECT r.phone_number_id AS "phoneNumberId", r.recent, r.status,
              json_build_object(
                'placed', o.placed + CASE WHEN t.in_window THEN t.placed ELSE 0 END,
                'human', o.human + CASE WHEN t.in_window THEN t.human ELSE 0 END) AS baseline
         FROM recent r, today t, other_days o`,
      [
        world.organizationId,
        number,
        world.livemode,
        tally.human,
        endedAt,
        tally.voicemail,
        tally.notAnswered,
        tally.failed,
        tally.connected,
        tally.talkSeconds,
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
