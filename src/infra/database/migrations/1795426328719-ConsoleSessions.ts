import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsoleSessions1795426328719 implements MigrationInterface {
  name = 'ConsoleSessions1795426328719';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "console_sessions" ("id" uuid NOT NULL, "token_hash" bytea NOT NULL, "subject" text NOT NULL, "organization_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15fe3f1740801e7a0581dea8d49" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_203b813dcc0698cbc2e97ba299" ON "console_sessions"  ("token_hash") `,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_203b813dcc0698cbc2e97ba299"`);
    await queryRunner.query(`DROP TABLE "console_sessions"`);
  }
}
