import { MigrationInterface, QueryRunner } from 'typeorm';

export class TestMode1795426980734 implements MigrationInterface {
  name = 'TestMode1795426980734';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "livemode" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "livemode" boolean NOT NULL DEFAULT true`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "livemode"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "livemode"`);
  }
}
