import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookOperations1795426088729 implements MigrationInterface {
  name = 'WebhookOperations1795426088729';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "last_recovery_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_webhook_id" ON "webhook_deliveries"  ("webhook_id", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_webhook_id"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "last_recovery_at"`);
  }
}
