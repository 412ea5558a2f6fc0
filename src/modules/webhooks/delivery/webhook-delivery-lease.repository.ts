import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isForeignKeyViolation } from '../../../infra/database/pg-errors';
import {
  LOG_INSERT,
  LoggedAttempt,
  WebhookDeliveryLogRepository,
  logParameters,
} from './webhook-delivery-log.repository';

/** `gone`: the endpoint was deleted since the attempt read it. */
export type ClaimResult = 'running' | 'waiting' | 'gone';

/** One attempt's slot: the attempt's job id and its endpoint. */
export interface SlotOf {
  jobId: string;
  endpointId: string;
}

/** An attempt waiting for a slot of its endpoint, and since when (its place in line). */
export interface WaitingAttempt extends SlotOf {
  since: Date;
}

/**
 * The only SQL on `webhook_delivery_leases` (with the claim's function, webhook_delivery_claim_batch, in its
 * migration): at most `limit` running attempts per endpoint across all workers. A claim runs under a per-endpoint
 * transaction lock (LOCK_SPACES.webhookEndpointSlots in src/infra/database/advisory-locks.ts), so two workers never both take the
 * last slot.
 */
@Injectable()
export class WebhookDeliveryLeaseRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly log: WebhookDeliveryLogRepository,
  ) {}

  /**
   * Takes a slot for each of the attempts, of any endpoints, in their order per endpoint, or records the ones past
   * their endpoint's free slots as waiting (a waiting attempt keeps its place in line when it asks again). An
   * attempt is `gone` when its endpoint was deleted since it was read.
   */
  async claimMany(attempts: SlotOf[], limit: number, leaseMs: number): Promise<ClaimResult[]> {
    // One round trip for the batch: the locks, the counts and the inserts run in PostgreSQL (migration
    // WebhookClaimSlotsAcrossEndpoints). The same attempt twice in a batch (a duplicate job) is claimed once.
    const unique = [...new Map(attempts.map((a) => [a.jobId, a])).values()];
    const running = await this.dataSource
      .query(`SELECT job_id, running FROM webhook_delivery_claim_batch($1, $2, $3, $4)`, [
        unique.map((a) => a.jobId),
        unique.map((a) => a.endpointId),
        limit,
        leaseMs,
      ])
      .then((rows: Array<{ job_id: string; running: boolean }>) => new Map(rows.map((r) => [r.job_id, r.running])))
      .catch(async (error: unknown) => {
        if (!isForeignKeyViolation(error)) throw error;
        // An endpoint deleted while the batch ran: each endpoint's attempts alone, so only its own are gone.
        if (new Set(unique.map((a) => a.endpointId)).size === 1) return new Map<string, boolean>();
        const results = new Map<string, boolean>();
        for (const group of groupByEndpoint(unique)) {
          const answers = await this.claimMany(group, limit, leaseMs);
          group.forEach((a, i) => {
            if (answers[i] !== 'gone') results.set(a.jobId, answers[i] === 'running');
          });
        }
        return results;
      });
    return attempts.map((a) => {
      const claimed = running.get(a.jobId);
      return claimed === undefined ? 'gone' : claimed ? 'running' : 'waiting';
    });
  }

  /**
   * Frees the slots of `attempts` (of any endpoints), logs `logged` (the attempts that held them and were sent) in
   * the same statement, and hands back as many of each endpoint's longest-waiting attempts as it freed there (their
   * rows removed: each claims again when it runs), oldest first.
   */
  async releaseMany(attempts: SlotOf[], logged: LoggedAttempt[] = []): Promise<WaitingAttempt[]> {
    const jobIds = attempts.map((a) => a.jobId);
    const freed = attempts.map((a) => a.endpointId);
    return this.handBack(jobIds, freed, logged).catch(async (error: unknown) => {
      if (!logged.length || !isForeignKeyViolation(error)) throw error;
      // An endpoint deleted while an attempt was in flight (nothing to log it against): the slots freed alone, and
      // the log takes the rows one by one, skipping that one.
      const next = await this.handBack(jobIds, freed, []);
      await this.log.insert(logged);
      return next;
    });
  }

  /**
   * Deletes the leases `jobIds`, logs `logged`, and hands back, for each entry of `freed` (an endpoint id per slot
   * freed), that endpoint's next waiting attempt, oldest first.
   */
  private async handBack(jobIds: string[], freed: string[], logged: LoggedAttempt[]): Promise<WaitingAttempt[]> {
    // A DELETE comes back from the driver as [rows, count] (reading it as rows woke nobody). The log's INSERT
    // takes $1-$12; with no rows it inserts nothing.
    const [rows]: [Array<WaitingAttempt>, number] = await this.dataSource.query(
      `WITH logged AS (${LOG_INSERT}),
            done AS (DELETE FROM webhook_delivery_leases WHERE job_id = ANY ($13)),
            freed AS (SELECT endpoint_id, count(*)::int AS slots FROM unnest($14::uuid[]) AS f(endpoint_id) GROUP BY 1),
            next AS (
              SELECT w.job_id FROM freed f CROSS JOIN LATERAL (
                SELECT job_id FROM webhook_delivery_leases
                 WHERE endpoint_id = f.endpoint_id AND NOT running AND job_id <> ALL ($13)
                 ORDER BY since LIMIT f.slots FOR UPDATE SKIP LOCKED) w)
       DELETE FROM webhook_delivery_leases l USING next WHERE l.job_id = next.job_id
       RETURNING l.job_id AS "jobId", l.endpoint_id AS "endpointId", l.since`,
      [...logParameters(logged), jobIds, freed],
    );
    return rows.sort((a, b) => a.since.getTime() - b.since.getTime());
  }

  /** Puts a waiting attempt handed back by `releaseMany` back at its place in line (its wake-up found it not parked). */
  async requeue(waiting: WaitingAttempt): Promise<void> {
    await this.dataSource
      .query(
        `INSERT INTO webhook_delivery_leases (job_id, endpoint_id, running, since) VALUES ($1, $2, false, $3)
         ON CONFLICT (job_id) DO NOTHING`,
        [waiting.jobId, waiting.endpointId, waiting.since],
      )
      .catch((error: unknown) => {
        // The endpoint is gone, and its attempts with it.
        if (!isForeignKeyViolation(error)) throw error;
      });
  }

  /** Whether the endpoint has a slot nobody holds (a parked attempt whose wake-up was lost may take it). */
  async hasFreeSlot(endpointId: string, limit: number): Promise<boolean> {
    const rows: Array<{ free: boolean }> = await this.dataSource.query(
      `SELECT count(*) < $2 AS free FROM webhook_delivery_leases
        WHERE endpoint_id = $1 AND running AND expires_at > now()`,
      [endpointId, limit],
    );
    return rows[0].free;
  }

  /** Hands back the next waiting attempt of the endpoint without freeing anything (its previous wake-up was lost). */
  async next(endpointId: string): Promise<WaitingAttempt | null> {
    const [next] = await this.handBack([], [endpointId], []);
    return next ?? null;
  }

  /** Leases long expired (their worker crashed) and waits whose job is long gone (a queue store lost its data). */
  async prune(olderThanHours: number): Promise<number> {
    const result = await this.dataSource.query(
      `DELETE FROM webhook_delivery_leases
        WHERE (running AND expires_at < now() - make_interval(hours => $1))
           OR (NOT running AND since < now() - make_interval(hours => $1))`,
      [olderThanHours],
    );
    return Number(result?.[1] ?? 0);
  }
}

/** The attempts of each endpoint, in their order. */
function groupByEndpoint(attempts: SlotOf[]): SlotOf[][] {
  const groups = new Map<string, SlotOf[]>();
  for (const a of attempts) {
    const group = groups.get(a.endpointId);
    if (group) group.push(a);
    else groups.set(a.endpointId, [a]);
  }
  return [...groups.values()];
}
