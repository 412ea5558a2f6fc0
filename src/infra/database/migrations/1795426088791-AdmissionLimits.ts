import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdmissionLimits1795426088791 implements MigrationInterface {
  name = 'AdmissionLimits1795426088791';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organization_limits" ("organization_id" uuid NOT NULL, "max_concurrent_calls" integer NOT NULL, "inbound_reserve" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eb6dfc156ba0a4f6658f33187af" PRIMARY KEY ("organization_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_calls_org_active" ON "calls"  ("organization_id", "status") WHERE status IN ('new', 'scheduled', 'lock-processing', 'processing')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_calls_org_active"`);
    await queryRunner.query(`DROP TABLE "organization_limits"`);
  }
}
