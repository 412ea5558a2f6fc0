import { MigrationInterface, QueryRunner } from 'typeorm';

export class MessagesByMedia1795710000000 implements MigrationInterface {
  name = 'MessagesByMedia1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_messages_account_media" ON "messages" ("account_id", "media_id") WHERE media_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_messages_account_media"`);
  }
}
