import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Immutable versions of a case's content (docs/testing-your-assistant.md, "Case versions"): `cases.version`
 * names the current one, `case_versions` keeps each, and a call records the version it was made from. Every
 * existing case gets its content as version 1.
 */
export class CaseVersions1795810000000 implements MigrationInterface {
  name = 'CaseVersions1795810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "cases" ADD "version" integer NOT NULL DEFAULT 1`);
    await queryRunner.query(
      `CREATE TABLE "case_versions" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "case_id" uuid NOT NULL, "version" integer NOT NULL, "prompt" text NOT NULL, "system_prompt_id" uuid, "first_message" text, "variables" jsonb NOT NULL DEFAULT '[]', "tool_ids" text array NOT NULL DEFAULT '{}', "integration_tool_ids" text array NOT NULL DEFAULT '{}', "voicemail" jsonb, "analysis" jsonb, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_case_versions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_case_versions_case_version" ON "case_versions" ("case_id", "version") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_case_versions_case_created" ON "case_versions" ("case_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `INSERT INTO "case_versions" ("id", "organization_id", "case_id", "version", "prompt", "system_prompt_id", "first_message", "variables", "tool_ids", "integration_tool_ids", "voicemail", "analysis", "created_at")
       SELECT gen_random_uuid(), "organization_id", "id", 1, "prompt", "system_prompt_id", "first_message", "variables", "tool_ids", "integration_tool_ids", "voicemail", "analysis", "updated_at" FROM "cases"`,
    );
    await queryRunner.query(`ALTER TABLE "calls" ADD "case_version" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "case_version"`);
    await queryRunner.query(`DROP INDEX "public"."ix_case_versions_case_created"`);
    await queryRunner.query(`DROP INDEX "public"."uq_case_versions_case_version"`);
    await queryRunner.query(`DROP TABLE "case_versions"`);
    await queryRunner.query(`ALTER TABLE "cases" DROP COLUMN "version"`);
  }
}
