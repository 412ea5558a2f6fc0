import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveryLeases1795437199546 implements MigrationInterface {
  name = 'WebhookDeliveryLeases1795437199546';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_leases" ("job_id" text NOT NULL, "endpoint_id" uuid NOT NULL, "running" boolean NOT NULL, "since" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_d40b80db26ae14bddebc74b06a8" PRIMARY KEY ("job_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_delivery_leases_endpoint" ON "webhook_delivery_leases"  ("endpoint_id", "running", "since") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_leases" ADD CONSTRAINT "FK_e9dc32583e740c8ca1c4dcc3246" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery_leases" DROP CONSTRAINT "FK_e9dc32583e740c8ca1c4dcc3246"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_delivery_leases_endpoint"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_leases"`);
  }
}
