import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tools (docs/tools.md): an organization's function, transfer, end-call and platform tools. */
export class Tools1795500000000 implements MigrationInterface {
  name = 'Tools1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tools" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "type" text NOT NULL, "name" text, "description" text, "parameters" jsonb, "url" text, "timeout_seconds" integer, "messages" jsonb, "destinations" jsonb, "provider_tool_id" text, "secret" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tools" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_tools_org_name" ON "tools" ("organization_id", "name") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_tools_org_name"`);
    await queryRunner.query(`DROP TABLE "tools"`);
  }
}
