import { MigrationInterface, QueryRunner } from 'typeorm';

/** A scenario's runs, newest first (the console's list of a scenario's results). */
export class ScenarioRunsByScenario1795860000000 implements MigrationInterface {
  name = 'ScenarioRunsByScenario1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_scenario_runs_scenario" ON "scenario_runs" ("scenario_id", "created_at", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_scenario_runs_scenario"`);
  }
}
