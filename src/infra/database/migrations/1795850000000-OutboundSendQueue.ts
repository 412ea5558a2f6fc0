import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound messages are stored before the provider is asked, so their provider id is unknown until it answers (or
 * its status webhook names our message); `send_pacing` holds the shared pacing of WhatsApp sends (per sending
 * number, per number and recipient), one row per key with its theoretical arrival time.
 */
export class OutboundSendQueue1795850000000 implements MigrationInterface {
  name = 'OutboundSendQueue1795850000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ALTER COLUMN "provider_message_id" DROP NOT NULL`);
    await queryRunner.query(`CREATE TABLE "send_pacing" ("key" text PRIMARY KEY, "tat" timestamptz(3) NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "ix_send_pacing_tat" ON "send_pacing" ("tat")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "send_pacing"`);
    await queryRunner.query(`DELETE FROM "messages" WHERE "provider_message_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "messages" ALTER COLUMN "provider_message_id" SET NOT NULL`);
  }
}
