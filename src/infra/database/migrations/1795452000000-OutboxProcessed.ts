import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboxProcessed1795452000000 implements MigrationInterface {
  name = 'OutboxProcessed1795452000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox_events" ADD "processed_at" TIMESTAMP(3) WITH TIME ZONE`);
    // Events relayed before this column existed were fanned out then; replaying them would only cost no-op jobs.
    await queryRunner.query(`UPDATE "outbox_events" SET "processed_at" = "relayed_at" WHERE "relayed_at" IS NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ix_outbox_unprocessed" ON "outbox_events" ("relayed_at") WHERE processed_at IS NULL AND relayed_at IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_outbox_unprocessed"`);
    await queryRunner.query(`ALTER TABLE "outbox_events" DROP COLUMN "processed_at"`);
  }
}
