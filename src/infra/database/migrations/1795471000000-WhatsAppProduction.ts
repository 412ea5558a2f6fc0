import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Production WhatsApp: provider error codes, media and typed payloads on messages; status reports kept until
 * their message is stored; users known only by business-scoped id; accounts' own sealed tokens; synced templates.
 */
export class WhatsAppProduction1795471000000 implements MigrationInterface {
  name = 'WhatsAppProduction1795471000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "early_delivery_statuses" ("account_id" uuid NOT NULL, "provider_message_id" text NOT NULL, "status" text NOT NULL, "error_code" integer, "error_title" text, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6b4c3d14e51d65b43e94b7e02f3" PRIMARY KEY ("account_id", "provider_message_id", "status"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_early_delivery_statuses_received" ON "early_delivery_statuses"  ("received_at") `,
    );
    await queryRunner.query(`ALTER TABLE "conversations" ADD "wa_user_id" text`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "error_code" integer`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "media_id" text`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "payload" jsonb`);
    await queryRunner.query(`ALTER TABLE "messaging_accounts" ADD "access_token_sealed" text`);
    await queryRunner.query(`ALTER TABLE "messaging_templates" ADD "components" jsonb`);
    await queryRunner.query(`ALTER TABLE "messaging_templates" ADD "provider_template_id" text`);
    await queryRunner.query(`ALTER TABLE "messaging_templates" ADD "synced_at" TIMESTAMP(3) WITH TIME ZONE`);
    // A user known only by id has an empty phone: the phone identifies a thread only when there is one.
    await queryRunner.query(`DROP INDEX "public"."ux_conversations_account_user_phone"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_conversations_account_user_phone" ON "conversations"  ("integration_id", "wa_user_phone") WHERE wa_user_phone <> ''`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_conversations_account_user_id" ON "conversations"  ("integration_id", "wa_user_id") WHERE wa_user_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_conversations_account_user_id"`);
    await queryRunner.query(`DELETE FROM "conversations" WHERE "wa_user_phone" = ''`);
    await queryRunner.query(`DROP INDEX "public"."ux_conversations_account_user_phone"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_conversations_account_user_phone" ON "conversations"  ("integration_id", "wa_user_phone") `,
    );
    await queryRunner.query(`ALTER TABLE "messaging_templates" DROP COLUMN "synced_at"`);
    await queryRunner.query(`ALTER TABLE "messaging_templates" DROP COLUMN "provider_template_id"`);
    await queryRunner.query(`ALTER TABLE "messaging_templates" DROP COLUMN "components"`);
    await queryRunner.query(`ALTER TABLE "messaging_accounts" DROP COLUMN "access_token_sealed"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "payload"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "media_id"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "error_code"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "wa_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_early_delivery_statuses_received"`);
    await queryRunner.query(`DROP TABLE "early_delivery_statuses"`);
  }
}
