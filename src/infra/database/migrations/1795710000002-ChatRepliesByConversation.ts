import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChatRepliesByConversation1795710000002 implements MigrationInterface {
  name = 'ChatRepliesByConversation1795710000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_chat_replies_conversation_replying" ON "chat_replies" ("conversation_id") WHERE status = 'replying'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_chat_replies_conversation_replying"`);
  }
}
