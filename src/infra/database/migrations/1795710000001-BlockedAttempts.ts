import { MigrationInterface, QueryRunner } from 'typeorm';

export class BlockedAttempts1795710000001 implements MigrationInterface {
  name = 'BlockedAttempts1795710000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "blocked_api_call_ids" text array NOT NULL DEFAULT '{}'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "blocked_api_call_ids"`);
  }
}
