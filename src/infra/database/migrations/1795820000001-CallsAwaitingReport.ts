import { MigrationInterface, QueryRunner } from 'typeorm';

export class CallsAwaitingReport1795820000001 implements MigrationInterface {
  name = 'CallsAwaitingReport1795820000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "awaiting_report" boolean NOT NULL DEFAULT false`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "awaiting_report"`);
  }
}
