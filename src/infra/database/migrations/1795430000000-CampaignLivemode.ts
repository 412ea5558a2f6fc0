import { MigrationInterface, QueryRunner } from 'typeorm';

export class CampaignLivemode1795430000000 implements MigrationInterface {
  name = 'CampaignLivemode1795430000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "livemode" boolean NOT NULL DEFAULT true`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "livemode"`);
  }
}
