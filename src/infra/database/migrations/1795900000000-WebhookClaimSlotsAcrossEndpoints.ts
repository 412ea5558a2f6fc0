import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim of the slots of attempts to many endpoints in one call: the attempts a worker has ready at once go to
 * many endpoints (a burst of 50 endpoints had one attempt per endpoint in flight), so a call per endpoint was a
 * round trip per attempt. Each endpoint's lock is the single claim's, taken in one order (by the lock's key) by
 * every caller, so two batches never wait on each other's locks. Per endpoint, slots go in the arrays' order and
 * the attempts past the free slots are recorded as waiting, keeping their place in line when they ask again. An
 * attempt whose endpoint is gone is left out of the answer. webhook_delivery_claim_many stays for processes of the
 * previous release during a deploy.
 */
export class WebhookClaimSlotsAcrossEndpoints1795900000000 implements MigrationInterface {
  name = 'WebhookClaimSlotsAcrossEndpoints1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION webhook_delivery_claim_batch(p_job_ids text[], p_endpoint_ids text[], p_limit int, p_lease_ms int)
      RETURNS TABLE (job_id text, running boolean) LANGUAGE plpgsql VOLATILE AS $$
      #variable_conflict use_column
      DECLARE
        v_endpoint_id text;
      BEGIN
        FOR v_endpoint_id IN
          SELECT DISTINCT ON (hashtext(e)) e FROM unnest(p_endpoint_ids) AS e ORDER BY hashtext(e)
        LOOP
          -- 0x77736c74, "wslt": LOCK_SPACES.webhookEndpointSlots.
          PERFORM pg_advisory_xact_lock(2004053108, hashtext(v_endpoint_id));
        END LOOP;
        RETURN QUERY
        WITH asked AS (
          SELECT j.id, j.endpoint_id::uuid AS endpoint_id,
                 row_number() OVER (PARTITION BY j.endpoint_id ORDER BY j.n) AS place
            FROM unnest(p_job_ids, p_endpoint_ids) WITH ORDINALITY AS j(id, endpoint_id, n)
            JOIN webhook_endpoints w ON w.id = j.endpoint_id::uuid),
        free AS (
          SELECT a.endpoint_id, p_limit - count(l.job_id)::int AS slots
            FROM (SELECT DISTINCT endpoint_id FROM asked) a
            LEFT JOIN webhook_delivery_leases l
              ON l.endpoint_id = a.endpoint_id AND l.running AND l.expires_at > now() AND l.job_id <> ALL (p_job_ids)
           GROUP BY a.endpoint_id)
        INSERT INTO webhook_delivery_leases AS l (job_id, endpoint_id, running, since, expires_at)
        SELECT a.id, a.endpoint_id, a.place <= f.slots, now(),
               CASE WHEN a.place <= f.slots THEN now() + make_interval(secs => p_lease_ms / 1000.0) END
          FROM asked a JOIN free f ON f.endpoint_id = a.endpoint_id
        ON CONFLICT ON CONSTRAINT "PK_d40b80db26ae14bddebc74b06a8" DO UPDATE
           SET running = excluded.running,
               expires_at = excluded.expires_at,
               since = CASE WHEN excluded.running THEN excluded.since ELSE l.since END
        RETURNING l.job_id, l.running;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_delivery_claim_batch(text[], text[], int, int)`);
  }
}
