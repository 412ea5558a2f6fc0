import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../errors/api-error';

export const RETENTION_HOURS = 24;
/** How long an in-flight request holds its key before a retry may assume it crashed. */
const LOCK_SECONDS = 60;

export type Claim = { kind: 'execute' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Idempotency-Key storage (docs/contracts/conventions.md) in PostgreSQL. A key is claimed with one INSERT … ON CONFLICT, so of
 * two concurrent requests exactly one executes; the other sees 409 until the first completes, then a replay.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly dataSource: DataSource) {}

  async claim(organizationId: string, key: string, requestHash: string): Promise<Claim> {
    const claimed = await this.dataSource.query(
      `INSERT INTO idempotency_keys (organization_id, key, request_hash, state, locked_until, expires_at)
       VALUES ($1, $2, $3, 'processing', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
       ON CONFLICT (organization_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, state = 'processing', locked_until = EXCLUDED.locked_until,
             expires_at = EXCLUDED.expires_at, response_status = NULL, response_body = NULL
         WHERE idempotency_keys.expires_at < now()
            OR (idempotency_keys.state = 'processing' AND idempotency_keys.locked_until < now()
                AND idempotency_keys.request_hash = EXCLUDED.request_hash)
       RETURNING key`,
      [organizationId, key, requestHash, LOCK_SECONDS, RETENTION_HOURS],
    );
    if (claimed.length) return { kind: 'execute' };
    const [existing] = await this.dataSource.query(
      `SELECT request_hash, state, response_status, response_body FROM idempotency_keys
        WHERE organization_id = $1 AND key = $2`,
      [organizationId, key],
    );
    // Deleted in between (the first attempt failed): let this one run.
    if (!existing) return this.claim(organizationId, key, requestHash);
    if (existing.request_hash !== requestHash) {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
    }
    if (existing.state !== 'completed') {
      throw new ApiError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed');
    }
    return { kind: 'replay', status: existing.response_status, body: existing.response_body };
  }

  async complete(organizationId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $3, response_body = $4::jsonb
        WHERE organization_id = $1 AND key = $2`,
      [organizationId, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** A failed request leaves no trace, so the client can correct it and retry with the same key. */
  async release(organizationId: string, key: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND state = 'processing'`,
      [organizationId, key],
    );
  }

  /** Keys past their expiry answer nothing any more. */
  async prune(): Promise<void> {
    await this.dataSource.query('DELETE FROM idempotency_keys WHERE expires_at < now()');
  }
}
