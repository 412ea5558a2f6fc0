import { MigrationInterface, QueryRunner } from 'typeorm';

/** Calls carry their case's tools, record their tool invocations and their transfer (docs/tools.md). */
export class CallTools1795500000001 implements MigrationInterface {
  name = 'CallTools1795500000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "tools" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "integration_tool_ids" text array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "tool_calls" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "transfer" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "transfer"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "tool_calls"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "integration_tool_ids"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "tools"`);
  }
}
