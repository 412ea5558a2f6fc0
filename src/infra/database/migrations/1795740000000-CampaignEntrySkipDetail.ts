import { MigrationInterface, QueryRunner } from 'typeorm';

export class CampaignEntrySkipDetail1795740000000 implements MigrationInterface {
  name = 'CampaignEntrySkipDetail1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaign_entries" ADD "skip_detail" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaign_entries" DROP COLUMN "skip_detail"`);
  }
}
