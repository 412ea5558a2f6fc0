import { MigrationInterface, QueryRunner } from 'typeorm';

export class DestinationRules1795720000000 implements MigrationInterface {
  name = 'DestinationRules1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "destination_rules" ("organization_id" uuid NOT NULL, "allowed_countries" text array, "blocked_prefixes" text array NOT NULL DEFAULT '{}', "allowed_classes" text array NOT NULL DEFAULT '{}', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_destination_rules" PRIMARY KEY ("organization_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "destination_rules"`);
  }
}
