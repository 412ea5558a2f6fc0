import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformFailover1795800000001 implements MigrationInterface {
  name = 'PlatformFailover1795800000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "phone_numbers" ADD "fallback" jsonb`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "platform_attempts" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(
      `CREATE TABLE "platform_health" ("platform" text NOT NULL, "consecutive_failures" integer NOT NULL DEFAULT 0, "cooldown_until" TIMESTAMP(3) WITH TIME ZONE, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_platform_health" PRIMARY KEY ("platform"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "platform_health"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "platform_attempts"`);
    await queryRunner.query(`ALTER TABLE "phone_numbers" DROP COLUMN "fallback"`);
  }
}
