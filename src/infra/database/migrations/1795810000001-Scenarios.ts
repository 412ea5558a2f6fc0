import { MigrationInterface, QueryRunner } from 'typeorm';

/** Scenarios (scripted conversations with a case's assistant) and their runs (docs/testing-your-assistant.md). */
export class Scenarios1795810000001 implements MigrationInterface {
  name = 'Scenarios1795810000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scenarios" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "livemode" boolean NOT NULL, "case_id" uuid NOT NULL, "name" text NOT NULL, "variables" jsonb NOT NULL DEFAULT '{}', "turns" jsonb NOT NULL, "expect" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_scenarios" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scenarios_world_created" ON "scenarios" ("organization_id", "livemode", "created_at", "id") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_scenarios_case" ON "scenarios" ("case_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "scenario_runs" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "livemode" boolean NOT NULL, "scenario_id" uuid NOT NULL, "case_id" uuid NOT NULL, "case_version" integer NOT NULL, "status" text NOT NULL, "transcript" jsonb NOT NULL DEFAULT '[]', "expectations" jsonb NOT NULL DEFAULT '[]', "duration_ms" integer, "usage" jsonb, "error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_scenario_runs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scenario_runs_org_created" ON "scenario_runs" ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scenario_runs_in_flight" ON "scenario_runs" ("status", "updated_at") WHERE status IN ('queued', 'running')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "scenario_runs"`);
    await queryRunner.query(`DROP TABLE "scenarios"`);
  }
}
