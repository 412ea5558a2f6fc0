import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test and live become two worlds on every per-world table (README: "Test and live"). Existing rows are live
 * unless something already marks them test: a conversation whose every message is a test message, an outbox
 * event about a test call or a test campaign (so a pending delivery of it never reaches a live endpoint).
 * Uniqueness that was per organization becomes per organization and world.
 */
export class Worlds1795470000001 implements MigrationInterface {
  name = 'Worlds1795470000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'contacts',
      'do_not_call_entries',
      'webhook_endpoints',
      'messaging_accounts',
      'conversations',
      'outbox_events',
    ]) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "livemode" boolean NOT NULL DEFAULT true`);
    }
    await queryRunner.query(
      `UPDATE conversations c SET livemode = false
        WHERE EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.livemode)`,
    );
    await queryRunner.query(
      `UPDATE outbox_events e SET livemode = false
        WHERE (e.type LIKE 'call.%' AND EXISTS
                (SELECT 1 FROM calls c WHERE c.id::text = e.data->>'id' AND NOT c.livemode))
           OR (e.type LIKE 'campaign.%' AND EXISTS
                (SELECT 1 FROM campaigns c WHERE c.id::text = e.data->>'id' AND NOT c.livemode))`,
    );
    await queryRunner.query(`DROP INDEX "public"."ux_contacts_org_phone"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_contacts_org_phone" ON "contacts" ("organization_id", "livemode", "phone") `,
    );
    await queryRunner.query(`DROP INDEX "public"."ux_do_not_call_active"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_do_not_call_active" ON "do_not_call_entries" ("organization_id", "livemode", "number") WHERE removed_at IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Going back merges the worlds: test rows that collide with live ones cannot keep a per-organization index.
    await queryRunner.query(`DELETE FROM contacts WHERE NOT livemode`);
    await queryRunner.query(`DELETE FROM do_not_call_entries WHERE NOT livemode`);
    await queryRunner.query(`DROP INDEX "public"."ux_do_not_call_active"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_do_not_call_active" ON "do_not_call_entries" ("organization_id", "number") WHERE removed_at IS NULL`,
    );
    await queryRunner.query(`DROP INDEX "public"."ux_contacts_org_phone"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_contacts_org_phone" ON "contacts" ("organization_id", "phone") `);
    for (const table of [
      'outbox_events',
      'conversations',
      'messaging_accounts',
      'webhook_endpoints',
      'do_not_call_entries',
      'contacts',
    ]) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "livemode"`);
    }
  }
}
