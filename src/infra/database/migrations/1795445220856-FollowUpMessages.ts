import { MigrationInterface, QueryRunner } from 'typeorm';

export class FollowUpMessages1795445220856 implements MigrationInterface {
  name = 'FollowUpMessages1795445220856';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "follow_up_messages" ("follow_up_id" uuid NOT NULL, "call_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "status" text NOT NULL, "reason" text, "message_id" uuid, "conversation_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f3421a63a6cafefe1c5956dfc6c" PRIMARY KEY ("follow_up_id", "call_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_follow_up_messages_follow_up_created" ON "follow_up_messages"  ("follow_up_id", "created_at") `,
    );
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "message_template_name" text`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "message_template_language" text`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" ADD "message_variables" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "message_variables"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "message_template_language"`);
    await queryRunner.query(`ALTER TABLE "follow_up_campaigns" DROP COLUMN "message_template_name"`);
    await queryRunner.query(`DROP INDEX "public"."ix_follow_up_messages_follow_up_created"`);
    await queryRunner.query(`DROP TABLE "follow_up_messages"`);
  }
}
