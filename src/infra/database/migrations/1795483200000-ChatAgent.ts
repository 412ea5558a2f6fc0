import { MigrationInterface, QueryRunner } from 'typeorm';

/** The chat agent: its setting per messaging account, one reply claim per inbound message, the thread's context. */
export class ChatAgent1795483200000 implements MigrationInterface {
  name = 'ChatAgent1795483200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "chat_agents" ("account_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "enabled" boolean NOT NULL, "case_id" uuid, "assistant_config_id" uuid, "hand_off_keywords" text array NOT NULL, "max_bot_replies" integer NOT NULL, "summary" boolean NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_chat_agents" PRIMARY KEY ("account_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "chat_replies" ("inbound_message_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "status" text NOT NULL, "reason" text, "reply_message_id" uuid, "attempts" integer NOT NULL DEFAULT 0, "lease_until" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_chat_replies" PRIMARY KEY ("inbound_message_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "conversations" ADD "bot_replies_in_row" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "conversations" ADD "last_chat_id" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "last_chat_id"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "bot_replies_in_row"`);
    await queryRunner.query(`DROP TABLE "chat_replies"`);
    await queryRunner.query(`DROP TABLE "chat_agents"`);
  }
}
