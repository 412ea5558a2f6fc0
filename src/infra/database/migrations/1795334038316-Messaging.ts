import { MigrationInterface, QueryRunner } from 'typeorm';

export class Messaging1795334038316 implements MigrationInterface {
  name = 'Messaging1795334038316';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "conversations" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "integration_id" uuid NOT NULL, "status" text NOT NULL, "wa_user_phone" text NOT NULL, "wa_user_name" text NOT NULL DEFAULT '', "contact_id" uuid, "last_message_preview" text NOT NULL DEFAULT '', "last_message_direction" text, "last_user_message_at" TIMESTAMP(3) WITH TIME ZONE, "session_expires_at" TIMESTAMP(3) WITH TIME ZONE, "message_count" integer NOT NULL DEFAULT '0', "ai_summary" text, "last_activity_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_conversations_org_status_activity" ON "conversations"  ("organization_id", "status", "last_activity_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_conversations_org_activity" ON "conversations"  ("organization_id", "last_activity_at", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_conversations_account_user_phone" ON "conversations"  ("integration_id", "wa_user_phone") `,
    );
    await queryRunner.query(
      `CREATE TABLE "messages" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "account_id" uuid NOT NULL, "direction" text NOT NULL, "sender_type" text NOT NULL, "message_type" text NOT NULL, "text" text NOT NULL DEFAULT '', "media_url" text, "media_caption" text, "delivery_status" text, "delivery_error" text, "provider_message_id" text NOT NULL, "template_name" text, "template_language" text, "timestamp" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_messages_account_provider_id" ON "messages"  ("account_id", "provider_message_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_messages_conversation_timestamp" ON "messages"  ("conversation_id", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "messaging_accounts" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "status" text NOT NULL, "status_message" text, "waba_id" text, "phone_number_id" text, "display_phone_number" text NOT NULL, "verified_name" text NOT NULL, "quality_rating" text NOT NULL DEFAULT 'UNKNOWN', "messages_sent" integer NOT NULL DEFAULT '0', "messages_received" integer NOT NULL DEFAULT '0', "last_message_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_684e3dbfe1f5d142b2c9995e939" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_messaging_accounts_phone_number_id" ON "messaging_accounts"  ("phone_number_id") WHERE phone_number_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_messaging_accounts_org_created" ON "messaging_accounts"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "messaging_templates" ("id" uuid NOT NULL, "account_id" uuid NOT NULL, "name" text NOT NULL, "language" text NOT NULL, "status" text NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_36ed8e80c16960181840bd1bdb9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_messaging_templates_account_name_language" ON "messaging_templates"  ("account_id", "name", "language") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ux_messaging_templates_account_name_language"`);
    await queryRunner.query(`DROP TABLE "messaging_templates"`);
    await queryRunner.query(`DROP INDEX "public"."ix_messaging_accounts_org_created"`);
    await queryRunner.query(`DROP INDEX "public"."ux_messaging_accounts_phone_number_id"`);
    await queryRunner.query(`DROP TABLE "messaging_accounts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_messages_conversation_timestamp"`);
    await queryRunner.query(`DROP INDEX "public"."ux_messages_account_provider_id"`);
    await queryRunner.query(`DROP TABLE "messages"`);
    await queryRunner.query(`DROP INDEX "public"."ux_conversations_account_user_phone"`);
    await queryRunner.query(`DROP INDEX "public"."ix_conversations_org_activity"`);
    await queryRunner.query(`DROP INDEX "public"."ix_conversations_org_status_activity"`);
    await queryRunner.query(`DROP TABLE "conversations"`);
  }
}
