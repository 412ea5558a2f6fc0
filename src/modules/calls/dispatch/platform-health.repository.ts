import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VoicePlatform } from '../../../infra/config/platforms';

/** The SQL of `platform_health`: one row per platform, each decision one statement (any number of processes). */
@Injectable()
export class PlatformHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Whether a call with a fallback may try the platform now: yes while it has failed fewer than `threshold`
   * placements in a row; no while it cools down; once the cooldown has passed, yes for one caller only (it takes
   * the next cooldown at once, so one probe per cooldown reaches a platform that is still down).
   */
  async mayTry(platform: VoicePlatform, threshold: number, cooldownMs: number): Promise<boolean> {
    const [row]: Array<{ may: boolean }> = await this.dataSource.query(
      `WITH current AS (SELECT consecutive_failures FROM platform_health WHERE platform = $1),
            probe AS (
              UPDATE platform_health SET cooldown_until = now() + $3 * interval '1 millisecond', updated_at = now()
               WHERE platform = $1 AND consecutive_failures >= $2 AND cooldown_until <= now() RETURNING 1)
       SELECT NOT EXISTS (SELECT 1 FROM current WHERE consecutive_failures >= $2)
              OR EXISTS (SELECT 1 FROM probe) AS may`,
      [platform, threshold, cooldownMs],
    );
    return row.may;
  }

  /**
   * One more failed placement in a row; at `threshold` and beyond the platform cools down for `cooldownMs`.
   * Returns the failures in a row now.
   */
  async failed(platform: VoicePlatform, threshold: number, cooldownMs: number): Promise<number> {
    const [row]: Array<{ failures: number }> = await this.dataSource.query(
      `INSERT INTO platform_health AS h (platform, consecutive_failures, cooldown_until, updated_at)
       VALUES ($1, 1, CASE WHEN $2 <= 1 THEN now() + $3 * interval '1 millisecond' END, now())
       ON CONFLICT (platform) DO UPDATE
         SET consecutive_failures = h.consecutive_failures + 1,
             cooldown_until = CASE WHEN h.consecutive_failures + 1 >= $2
                                   THEN now() + $3 * interval '1 millisecond' ELSE h.cooldown_until END,
             updated_at = now()
       RETURNING consecutive_failures AS failures`,
      [platform, threshold, cooldownMs],
    );
    return row.failures;
  }

  /** A placement succeeded: the run of failures ends. Returns how many failures in a row it ended (0: none). */
  async succeeded(platform: VoicePlatform): Promise<number> {
    const rows: Array<{ ended: number }> = await this.dataSource.query(
      `UPDATE platform_health h SET consecutive_failures = 0, cooldown_until = NULL, updated_at = now()
         FROM (SELECT consecutive_failures FROM platform_health WHERE platform = $1 FOR UPDATE) AS before
        WHERE h.platform = $1 AND before.consecutive_failures > 0
        RETURNING before.consecutive_failures AS ended`,
      [platform],
    );
    return rows[0]?.ended ?? 0;
  }
}
