import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the voice platform reports at the end of a call and we keep (its cost and its summary), and when a call
 * the platform could not take yet may be dispatched again.
 */
export class CallProviderOutcome1795470000000 implements MigrationInterface {
  name = 'CallProviderOutcome1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "provider_cost" double precision`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "provider_summary" text`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "retry_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "retry_at"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "provider_summary"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "provider_cost"`);
  }
}
