import { MigrationInterface, QueryRunner } from 'typeorm';

/** A/B tests of case versions: a campaign's variants, and the version each entry was assigned. */
export class CampaignVariants1795810000002 implements MigrationInterface {
  name = 'CampaignVariants1795810000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "variants" jsonb`);
    await queryRunner.query(`ALTER TABLE "campaign_entries" ADD "case_version" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaign_entries" DROP COLUMN "case_version"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "variants"`);
  }
}
