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
 * The only SQL on `webhook_delivery_leases` (with the claim's function, webhook_delivery_claim, in its migration):
 * at most `limit` running attempts per endpoint across all workers. A claim runs under a per-endpoint
 * transaction lock (LOCK_SPACES.webhookEndpointSlots in src/infra/database/advisory-locks.ts), so two workers never both take the
 * last slot.
 */
@Injectable()
export class WebhookDeliveryLeaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes a slot for the attempt `jobId`, or records it as waiting for one. A waiting attempt keeps its place in
   * line when it asks again.
   */
  async claim(jobId: string, endpointId: string, limit: number, leaseMs: number): Promise<ClaimResult> {
    // One round trip: the lock and the count-and-insert run in PostgreSQL (migration WebhookClaimSlotFunction).
    const running = await this.dataSource
      .query(`SELECT webhook_delivery_claim($1, $2, $3, $4) AS running`, [jobId, endpointId, limit, leaseMs])
      .then((rows: Array<{ running: boolean }>) => rows[0].running)
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      });
    return running === null ? 'gone' : running ? 'running' : 'waiting';
  }

  /**
   * Frees the slot of `jobId` and hands back the longest-waiting attempt of the endpoint (its row removed: it
   * claims again when it runs), or null when none waits.
   */
  async release(jobId: string, endpointId: string): Promise<WaitingAttempt | null> {
    // A DELETE comes back from the driver as [rows, count] (reading it as rows woke nobody).
    const [rows]: [Array<WaitingAttempt>, number] = await this.dataSource.query(
      `WITH done AS (DELETE FROM webhook_delivery_leases WHERE job_id = $1),
            next AS (
              SELECT job_id FROM webhook_delivery_leases
               WHERE endpoint_id = $2 AND NOT running AND job_id <> $1
               ORDER BY since LIMIT 1 FOR UPDATE SKIP LOCKED)
       DELETE FROM webhook_delivery_leases l USING next WHERE l.job_id = next.job_id
       RETURNING l.job_id AS "jobId", l.since`,
      [jobId, endpointId],
    );
    return rows[0] ?? null;
  }

  /** Puts a waiting attempt handed back by `release` back at its place in line (its wake-up found it not parked). */
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
  next(endpointId: string): Promise<WaitingAttempt | null> {
    return this.release('', endpointId);
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
