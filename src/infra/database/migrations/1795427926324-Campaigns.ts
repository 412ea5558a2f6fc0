import { MigrationInterface, QueryRunner } from 'typeorm';

export class Campaigns1795427926324 implements MigrationInterface {
  name = 'Campaigns1795427926324';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "campaign_attempts" ("id" uuid NOT NULL, "entry_id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "to" text NOT NULL, "attempt" integer NOT NULL, "call_id" uuid NOT NULL, "ended_reason" text, "at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c13c50b103a8ae4306069b9f18b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_campaign_attempts_call" ON "campaign_attempts"  ("call_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_campaign_attempts_number_at" ON "campaign_attempts"  ("organization_id", "to", "at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_campaign_attempts_campaign_at" ON "campaign_attempts"  ("campaign_id", "at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_campaign_attempts_entry_attempt" ON "campaign_attempts"  ("entry_id", "attempt") `,
    );
    await queryRunner.query(
      `CREATE TABLE "campaign_entries" ("id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "to" text NOT NULL, "contact_id" uuid, "variable_values" jsonb, "time_zone" text NOT NULL, "status" text NOT NULL, "skip_reason" text, "attempts" integer NOT NULL DEFAULT '0', "blocked_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "current_call_id" uuid, "last_ended_reason" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3de4ae16b700e702d878f5b946a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_campaign_entries_page" ON "campaign_entries"  ("campaign_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_campaign_entries_due" ON "campaign_entries"  ("campaign_id", "status", "next_attempt_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "campaigns" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "status" text NOT NULL, "paused_reason" text, "call_from" text NOT NULL, "case_id" uuid, "assistant_config_id" uuid, "first_message" text, "audience" jsonb NOT NULL, "start_at" TIMESTAMP(3) WITH TIME ZONE, "window" jsonb, "max_concurrent" integer, "calls_per_minute" integer, "retry" jsonb, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_831e3fcd4fc45b4e4c3f57a9ee4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_campaigns_active" ON "campaigns"  ("status") WHERE status IN ('scheduled', 'running')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_campaigns_org_created" ON "campaigns"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(`ALTER TABLE "calls" ADD "campaign_id" uuid`);
    await queryRunner.query(
      `CREATE INDEX "ix_calls_campaign" ON "calls"  ("campaign_id") WHERE campaign_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_calls_campaign"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "campaign_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaigns_org_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaigns_active"`);
    await queryRunner.query(`DROP TABLE "campaigns"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaign_entries_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaign_entries_page"`);
    await queryRunner.query(`DROP TABLE "campaign_entries"`);
    await queryRunner.query(`DROP INDEX "public"."ux_campaign_attempts_entry_attempt"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaign_attempts_campaign_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaign_attempts_number_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_campaign_attempts_call"`);
    await queryRunner.query(`DROP TABLE "campaign_attempts"`);
  }
}
