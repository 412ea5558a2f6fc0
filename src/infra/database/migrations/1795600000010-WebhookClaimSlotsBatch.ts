import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim of several attempts' slots of one endpoint in one call (the attempts a worker has ready at once): one
 * lock and one count serve the whole batch, where one call per attempt queued every claim of a busy endpoint
 * behind the lock and behind a pool connection. Slots go in the array's order; attempts past the free slots are
 * recorded as waiting, keeping their place in line when they ask again. The lock is the single claim's
 * (webhook_delivery_claim stays for processes of the previous release during a deploy).
 */
export class WebhookClaimSlotsBatch1795600000010 implements MigrationInterface {
  name = 'WebhookClaimSlotsBatch1795600000010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION webhook_delivery_claim_many(p_job_ids text[], p_endpoint_id text, p_limit int, p_lease_ms int)
      RETURNS TABLE (job_id text, running boolean) LANGUAGE plpgsql VOLATILE AS $$
      #variable_conflict use_column
      DECLARE
        free int;
      BEGIN
        -- 0x77736c74, "wslt": LOCK_SPACES.webhookEndpointSlots.
        PERFORM pg_advisory_xact_lock(2004053108, hashtext(p_endpoint_id));
        SELECT p_limit - count(*)::int INTO free FROM webhook_delivery_leases l
         WHERE l.endpoint_id = p_endpoint_id::uuid AND l.running AND l.expires_at > now()
           AND l.job_id <> ALL (p_job_ids);
        RETURN QUERY
        INSERT INTO webhook_delivery_leases AS l (job_id, endpoint_id, running, since, expires_at)
        SELECT j.id, p_endpoint_id::uuid, j.n <= free, now(),
               CASE WHEN j.n <= free THEN now() + make_interval(secs => p_lease_ms / 1000.0) END
          FROM unnest(p_job_ids) WITH ORDINALITY AS j(id, n)
        ON CONFLICT ON CONSTRAINT "PK_d40b80db26ae14bddebc74b06a8" DO UPDATE
           SET running = excluded.running,
               expires_at = excluded.expires_at,
               since = CASE WHEN excluded.running THEN excluded.since ELSE l.since END
        RETURNING l.job_id, l.running;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_delivery_claim_many(text[], text, int, int)`);
  }
}
