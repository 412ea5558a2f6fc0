import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isForeignKeyViolation } from '../../../infra/database/pg-errors';

/** `gone`: the endpoint was deleted since the attempt read it. */
export type ClaimResult = 'running' | 'waiting' | 'gone';

/** An attempt waiting for a slot, and since when (its place in line). */
export interface WaitingAttempt {
  jobId: string;
  since: Date;
}

/**
 * The only SQL on `webhook_delivery_leases` (with the claim's function, webhook_delivery_claim_many, in its
 * migration): at most `limit` running attempts per endpoint across all workers. A claim runs under a per-endpoint
 * transaction lock (LOCK_SPACES.webhookEndpointSlots in src/infra/database/advisory-locks.ts), so two workers never both take the
 * last slot.
 */
@Injectable()
export class WebhookDeliveryLeaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes a slot for each of the attempts `jobIds` of one endpoint, in their order, or records the ones past the
   * free slots as waiting (a waiting attempt keeps its place in line when it asks again). Every attempt is `gone`
   * when the endpoint was deleted since they read it.
   */
  async claimMany(jobIds: string[], endpointId: string, limit: number, leaseMs: number): Promise<ClaimResult[]> {
    // One round trip for the batch: the lock, the count and the inserts run in PostgreSQL (migration
    // WebhookClaimSlotsBatch). The same attempt twice in a batch (a duplicate job) is claimed once.
    const unique = [...new Set(jobIds)];
    const running = await this.dataSource
      .query(`SELECT job_id, running FROM webhook_delivery_claim_many($1, $2, $3, $4)`, [
        unique,
        endpointId,
        limit,
        leaseMs,
      ])
      .then((rows: Array<{ job_id: string; running: boolean }>) => new Map(rows.map((r) => [r.job_id, r.running])))
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      });
    return jobIds.map((id) => (running === null ? 'gone' : running.get(id) ? 'running' : 'waiting'));
  }

  /**
   * Frees the slots of `jobIds` (attempts of one endpoint) and hands back as many of the endpoint's longest-waiting
   * attempts (their rows removed: each claims again when it runs), oldest first.
   */
  async releaseMany(jobIds: string[], endpointId: string): Promise<WaitingAttempt[]> {
    // A DELETE comes back from the driver as [rows, count] (reading it as rows woke nobody).
    const [rows]: [Array<WaitingAttempt>, number] = await this.dataSource.query(
      `WITH done AS (DELETE FROM webhook_delivery_leases WHERE job_id = ANY ($1)),
            next AS (
              SELECT job_id FROM webhook_delivery_leases
               WHERE endpoint_id = $2 AND NOT running AND job_id <> ALL ($1)
               ORDER BY since LIMIT $3 FOR UPDATE SKIP LOCKED)
       DELETE FROM webhook_delivery_leases l USING next WHERE l.job_id = next.job_id
       RETURNING l.job_id AS "jobId", l.since`,
      [jobIds, endpointId, Math.max(1, jobIds.length)],
    );
    return rows.sort((a, b) => a.since.getTime() - b.since.getTime());
  }

  /** Puts a waiting attempt handed back by `releaseMany` back at its place in line (its wake-up found it not parked). */
  async requeue(waiting: WaitingAttempt, endpointId: string): Promise<void> {
    await this.dataSource
      .query(
        `INSERT INTO webhook_delivery_leases (job_id, endpoint_id, running, since) VALUES ($1, $2, false, $3)
         ON CONFLICT (job_id) DO NOTHING`,
        [waiting.jobId, endpointId, waiting.since],
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
    const [next] = await this.releaseMany([], endpointId);
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
