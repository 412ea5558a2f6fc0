import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795331202983 implements MigrationInterface {
  name = 'Foundation1795331202983';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("organization_id" uuid NOT NULL, "key" text NOT NULL, "request_hash" text NOT NULL, "state" text NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE NOT NULL, "response_status" integer, "response_body" jsonb, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_fa1b697098c138245abc15cad73" PRIMARY KEY ("organization_id", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e5fc0731b6752a8e9194fa265e" ON "idempotency_keys"  ("expires_at") `);
    await queryRunner.query(
      `CREATE TABLE "organizations" ("id" uuid NOT NULL, "name" text NOT NULL, "has_profile" boolean NOT NULL DEFAULT true, "description" text, "contact_email" text, "contact_phone" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "environment" text NOT NULL, "key_hash" bytea NOT NULL, "hint" text NOT NULL, "scopes" text array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_a283bdef18876e525aefaec042" ON "api_keys"  ("organization_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_57384430aa1959f4578046c9b8" ON "api_keys"  ("key_hash") `);
    await queryRunner.query(
      `CREATE TABLE "contact_group_members" ("group_id" uuid NOT NULL, "contact_id" uuid NOT NULL, CONSTRAINT "PK_74e411fa3a953dbb3c9db5b85dc" PRIMARY KEY ("group_id", "contact_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6197f23a9c6c342f2873f62cda" ON "contact_group_members"  ("contact_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "contact_groups" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_90a24a920e8e63180026d9821af" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_944df5c61d7d6085234f5a5d41" ON "contact_groups"  ("organization_id") `);
    await queryRunner.query(
      `CREATE TABLE "outbox_events" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "event_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "type" text NOT NULL, "data" jsonb NOT NULL, "occurred_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "relayed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_6689a16c00d09b8089f6237f1d2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_a82c439f9dab57e098be1d8329" ON "outbox_events"  ("event_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_eb763e0c672a2fa216f07c0a4f" ON "outbox_events"  ("relayed_at") `);
    await queryRunner.query(`CREATE INDEX "ix_outbox_unrelayed" ON "outbox_events"  ("id") WHERE relayed_at IS NULL`);
    await queryRunner.query(
      `CREATE TABLE "phone_numbers" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "number" text NOT NULL, "label" text NOT NULL DEFAULT '', "provider_id" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a72cf9a1834a1417e195fdd2c02" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_39a8667426c93127ba41ecacba" ON "phone_numbers"  ("number") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_655ad97d3b3787289d8711985e" ON "phone_numbers"  ("organization_id", "number") `,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a283bdef18876e525aefaec042f" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_a283bdef18876e525aefaec042f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_655ad97d3b3787289d8711985e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_39a8667426c93127ba41ecacba"`);
    await queryRunner.query(`DROP TABLE "phone_numbers"`);
    await queryRunner.query(`DROP INDEX "public"."ix_outbox_unrelayed"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eb763e0c672a2fa216f07c0a4f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a82c439f9dab57e098be1d8329"`);
    await queryRunner.query(`DROP TABLE "outbox_events"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_944df5c61d7d6085234f5a5d41"`);
    await queryRunner.query(`DROP TABLE "contact_groups"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6197f23a9c6c342f2873f62cda"`);
    await queryRunner.query(`DROP TABLE "contact_group_members"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_57384430aa1959f4578046c9b8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a283bdef18876e525aefaec042"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e5fc0731b6752a8e9194fa265e"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
