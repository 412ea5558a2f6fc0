import { MigrationInterface, QueryRunner } from 'typeorm';

export class DoNotCall1795426352153 implements MigrationInterface {
  name = 'DoNotCall1795426352153';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "do_not_call_entries" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "number" text NOT NULL, "reason" text, "source" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "removed_at" TIMESTAMP(3) WITH TIME ZONE, "removed_by" text, CONSTRAINT "PK_b5519030ec1299023d31876f696" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_do_not_call_org_created" ON "do_not_call_entries"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_do_not_call_active" ON "do_not_call_entries"  ("organization_id", "number") WHERE removed_at IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_do_not_call_active"`);
    await queryRunner.query(`DROP INDEX "public"."ix_do_not_call_org_created"`);
    await queryRunner.query(`DROP TABLE "do_not_call_entries"`);
  }
}
