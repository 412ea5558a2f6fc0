import { MigrationInterface, QueryRunner } from 'typeorm';

/** The console's search of calls by number (either end), newest first, without scanning an organization's calls. */
export class CallsByNumber1795480000000 implements MigrationInterface {
  name = 'CallsByNumber1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_calls_org_to_created" ON "calls" ("organization_id", "call_to", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_calls_org_from_created" ON "calls" ("organization_id", "call_from", "created_at", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_calls_org_from_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_calls_org_to_created"`);
  }
}
