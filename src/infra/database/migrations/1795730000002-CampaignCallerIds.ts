import { MigrationInterface, QueryRunner } from 'typeorm';

/** Campaigns spread over several caller IDs, each with a daily cap. */
export class CampaignCallerIds1795730000002 implements MigrationInterface {
  name = 'CampaignCallerIds1795730000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "from_numbers" text array`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "max_calls_per_number_per_day" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "max_calls_per_number_per_day"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "from_numbers"`);
  }
}
