import { MigrationInterface, QueryRunner } from 'typeorm';

export class DialerAutomations1795429336312 implements MigrationInterface {
  name = 'DialerAutomations1795429336312';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "delay_seconds" integer`);
    await queryRunner.query(
      `ALTER TABLE "follow_up_campaigns" ADD "trigger_on" text array NOT NULL DEFAULT '{customer-did-not-answer,voicemail-reached}'`,
    );
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "trigger_case_id" uuid`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "call_from" text`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" ADD "rrule" text`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" ADD "time_zone" text NOT NULL DEFAULT 'UTC'`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" ADD "call_from" text`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" ADD "audience" jsonb`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" ADD "next_occurrence_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "source_type" text`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "source_id" uuid`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "source_key" text`);
    await queryRunner.query(
      `CREATE INDEX "ix_recurring_schedules_due" ON "recurring_schedules"  ("next_occurrence_at") WHERE status = 'active' AND rrule IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_campaigns_source" ON "campaigns"  ("source_id", "source_key") WHERE source_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_campaigns_source"`);
    await queryRunner.query(`DROP INDEX "public"."ix_recurring_schedules_due"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "source_key"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "source_id"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "source_type"`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" DROP COLUMN "next_occurrence_at"`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" DROP COLUMN "audience"`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" DROP COLUMN "call_from"`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" DROP COLUMN "time_zone"`);
    await queryRunner.query(`ALTER TABLE "recurring_schedules" DROP COLUMN "rrule"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "call_from"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "trigger_case_id"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "trigger_on"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "delay_seconds"`);
  }
}
