import { MigrationInterface, QueryRunner } from 'typeorm';

export class UsageDailyTotals1795333161728 implements MigrationInterface {
  name = 'UsageDailyTotals1795333161728';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "usage_daily_totals" ("organization_id" uuid NOT NULL, "day" date NOT NULL, "calls" integer NOT NULL DEFAULT '0', "inbound_calls" integer NOT NULL DEFAULT '0', "talk_mins" double precision NOT NULL DEFAULT '0', "inbound_mins" double precision NOT NULL DEFAULT '0', "deducted_mins" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_22f5f643ad7116766b962b5ebfb" PRIMARY KEY ("organization_id", "day"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "usage_daily_totals"`);
  }
}
