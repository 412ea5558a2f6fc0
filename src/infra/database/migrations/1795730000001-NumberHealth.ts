import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each number's daily call figures and its health status, counted as calls end. */
export class NumberHealth1795730000001 implements MigrationInterface {
  name = 'NumberHealth1795730000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "number_days" ("phone_number_id" uuid NOT NULL, "livemode" boolean NOT NULL, "day" date NOT NULL, "placed" integer NOT NULL DEFAULT '0', "human" integer NOT NULL DEFAULT '0', "voicemail" integer NOT NULL DEFAULT '0', "not_answered" integer NOT NULL DEFAULT '0', "failed" integer NOT NULL DEFAULT '0', "connected" integer NOT NULL DEFAULT '0', "talk_seconds" double precision NOT NULL DEFAULT '0', CONSTRAINT "PK_number_days" PRIMARY KEY ("phone_number_id", "livemode", "day"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "number_health" ("phone_number_id" uuid NOT NULL, "livemode" boolean NOT NULL, "organization_id" uuid NOT NULL, "recent" boolean array NOT NULL DEFAULT '{}', "status" text NOT NULL DEFAULT 'healthy', "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_number_health" PRIMARY KEY ("phone_number_id", "livemode"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "number_health"`);
    await queryRunner.query(`DROP TABLE "number_days"`);
  }
}
