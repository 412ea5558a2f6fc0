import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An outbound message keeps the provider request it is sent with (`pending_send`, the Graph body and the number
 * it goes from) until the provider names it, so that the send queue can be rebuilt from PostgreSQL: a send whose
 * process died, whose enqueue failed or whose job gave up on our side is found by the sweeper and sent again.
 * `send_sweeps` counts those rebuilds (bounded: past the bound the message fails). The partial index holds only
 * the unsent outbound rows the sweeper reads, oldest first.
 */
export class MessagePendingSend1795885000000 implements MigrationInterface {
  name = 'MessagePendingSend1795885000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "pending_send" jsonb`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "send_sweeps" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(
      `CREATE INDEX "ix_messages_unsent" ON "messages" ("timestamp")
        WHERE "direction" = 'outbound' AND "delivery_status" = 'accepted' AND "provider_message_id" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_messages_unsent"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "send_sweeps"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "pending_send"`);
  }
}
