import { MigrationInterface, QueryRunner } from 'typeorm';

export class CallsUnconfirmedPlacement1795840000000 implements MigrationInterface {
  name = 'CallsUnconfirmedPlacement1795840000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" ADD "unconfirmed_placement_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "unconfirmed_placement_at"`);
  }
}
