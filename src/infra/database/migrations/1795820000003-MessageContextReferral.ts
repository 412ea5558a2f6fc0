import { MigrationInterface, QueryRunner } from 'typeorm';

export class MessageContextReferral1795820000003 implements MigrationInterface {
  name = 'MessageContextReferral1795820000003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "context" jsonb`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "referral" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "referral"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "context"`);
  }
}
