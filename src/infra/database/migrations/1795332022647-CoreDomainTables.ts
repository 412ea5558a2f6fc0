import { MigrationInterface, QueryRunner } from 'typeorm';

export class CoreDomainTables1795332022647 implements MigrationInterface {
  name = 'CoreDomainTables1795332022647';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inbound_assistants" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "system_prompt_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_61081add8e61fd371cac5bb41df" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ed2df49f29aafdd720611f1d40" ON "inbound_assistants"  ("organization_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "outbound_assistants" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "description" text, "is_default" boolean NOT NULL DEFAULT false, "voice" jsonb NOT NULL, "model" jsonb NOT NULL, "transcriber" jsonb NOT NULL, "first_message" text, "system_prompt" text, "dial_keypad_function_enabled" boolean NOT NULL DEFAULT false, "backchanneling_enabled" boolean NOT NULL DEFAULT true, "background_denoising_enabled" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5e771155206004bfc22d50d1159" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_outbound_assistants_org_created" ON "outbound_assistants"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_outbound_assistants_one_default" ON "outbound_assistants"  ("organization_id") WHERE is_default`,
    );
    await queryRunner.query(
      `CREATE TABLE "calls" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "status" text NOT NULL, "direction" text NOT NULL, "call_from" text NOT NULL, "call_to" text NOT NULL, "case_id" uuid, "contact_id" uuid, "assistant_config_id" uuid, "first_message" text, "system_prompt" text, "tool_ids" text array NOT NULL DEFAULT '{}', "variable_values" jsonb, "scheduled_at" TIMESTAMP(3) WITH TIME ZONE, "api_call_id" text, "api_call_status" text, "ended_reason" text, "result_status" text, "recording_url" text, "duration_seconds" double precision, "transcript" jsonb NOT NULL DEFAULT '[]', "dispatched_at" TIMESTAMP(3) WITH TIME ZONE, "ended_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d9171d91f8dd1a649659f1b6a20" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_calls_api_call_id" ON "calls"  ("api_call_id") WHERE api_call_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_calls_contact" ON "calls"  ("organization_id", "contact_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_calls_assistant_queued" ON "calls"  ("assistant_config_id") WHERE status IN ('new', 'scheduled', 'lock-processing')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_calls_case_queued" ON "calls"  ("case_id") WHERE status IN ('new', 'scheduled', 'lock-processing')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_calls_due" ON "calls"  ("status", "scheduled_at") WHERE status IN ('new', 'scheduled')`,
    );
    await queryRunner.query(`CREATE INDEX "ix_calls_org_created" ON "calls"  ("organization_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "cases" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "title" text NOT NULL, "description" text, "first_message" text, "prompt" text NOT NULL, "system_prompt_id" uuid, "variables" jsonb NOT NULL DEFAULT '[]', "tags" text array NOT NULL DEFAULT '{}', "tool_ids" text array NOT NULL DEFAULT '{}', "integration_tool_ids" text array NOT NULL DEFAULT '{}', "keyterms" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_264acb3048c240fb89aa34626db" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_cases_org_created" ON "cases"  ("organization_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "prompts" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "content" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_21f33798862975179e40b216a1d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_17ed6c0f33e2720e182e29b80d" ON "prompts"  ("organization_id") `);
    await queryRunner.query(
      `CREATE TABLE "contacts" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "title" text NOT NULL, "phone" text NOT NULL, "email" text, "notes" text, "tags" text array NOT NULL DEFAULT '{}', "custom_fields" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b99cd40cfd66a99f1571f4f72e6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_created" ON "contacts"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_contacts_org_phone" ON "contacts"  ("organization_id", "phone") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_contacts_org_phone"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_created"`);
    await queryRunner.query(`DROP TABLE "contacts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_17ed6c0f33e2720e182e29b80d"`);
    await queryRunner.query(`DROP TABLE "prompts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cases_org_created"`);
    await queryRunner.query(`DROP TABLE "cases"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_org_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_case_queued"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_assistant_queued"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_contact"`);
    await queryRunner.query(`DROP INDEX "public"."ux_calls_api_call_id"`);
    await queryRunner.query(`DROP TABLE "calls"`);
    await queryRunner.query(`DROP INDEX "public"."ux_outbound_assistants_one_default"`);
    await queryRunner.query(`DROP INDEX "public"."ix_outbound_assistants_org_created"`);
    await queryRunner.query(`DROP TABLE "outbound_assistants"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ed2df49f29aafdd720611f1d40"`);
    await queryRunner.query(`DROP TABLE "inbound_assistants"`);
  }
}
