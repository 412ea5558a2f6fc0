import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook attempt's slot claim in one round trip: the per-endpoint lock and the count-and-insert
 * run inside PostgreSQL, so the lock is held for the time of two statements, not of four client round trips
 * during which every other claim of the endpoint waits on a connection of the pool. Each statement of a
 * volatile function takes its own snapshot: the count sees every slot committed before the lock was granted.
 * The lock keys are those of the previous client-side transaction (a process of the previous release may claim
 * beside this one during a deploy).
 */
export class WebhookClaimSlotFunction1795460000000 implements MigrationInterface {
  name = 'WebhookClaimSlotFunction1795460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION webhook_delivery_claim(p_job_id text, p_endpoint_id text, p_limit int, p_lease_ms int)
      RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        taken boolean;
      BEGIN
        -- 0x77736c74, "wslt": WebhookDeliveryLeaseRepository's ENDPOINT_SLOTS_LOCK.
        PERFORM pg_advisory_xact_lock(2004053108, hashtext(p_endpoint_id));
        WITH busy AS (
          SELECT count(*)::int AS n FROM webhook_delivery_leases
           WHERE endpoint_id = p_endpoint_id::uuid AND running AND expires_at > now() AND job_id <> p_job_id)
        INSERT INTO webhook_delivery_leases (job_id, endpoint_id, running, since, expires_at)
        SELECT p_job_id, p_endpoint_id::uuid, busy.n < p_limit, now(),
               CASE WHEN busy.n < p_limit THEN now() + make_interval(secs => p_lease_ms / 1000.0) END
          FROM busy
        ON CONFLICT (job_id) DO UPDATE
           SET running = excluded.running,
               expires_at = excluded.expires_at,
               since = CASE WHEN excluded.running THEN excluded.since ELSE webhook_delivery_leases.since END
        RETURNING running INTO taken;
        RETURN taken;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_delivery_claim(text, text, int, int)`);
  }
}
