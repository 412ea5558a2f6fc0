import { MigrationInterface, QueryRunner } from 'typeorm';

export class PhoneNumberTelephony1795820000002 implements MigrationInterface {
  name = 'PhoneNumberTelephony1795820000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "phone_numbers" ADD "telephony" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "phone_numbers" DROP COLUMN "telephony"`);
  }
}
