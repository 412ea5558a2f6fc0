import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795332239808 implements MigrationInterface {
  name = 'Webhooks1795332239808';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "secret" text NOT NULL, "description" text, "is_active" boolean NOT NULL DEFAULT true, "consecutive_failures" integer NOT NULL DEFAULT '0', "disabled_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_893247a8681e31f117a34b4fb4" ON "webhook_endpoints"  ("organization_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" text NOT NULL, "webhook_id" uuid NOT NULL, "attempt" integer NOT NULL, "success" boolean NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "response_excerpt" text, "error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_04fa926c32b43d66134e059d76" ON "webhook_deliveries"  ("created_at") `);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_endpoint_created" ON "webhook_deliveries"  ("endpoint_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_endpoint_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_04fa926c32b43d66134e059d76"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_893247a8681e31f117a34b4fb4"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
