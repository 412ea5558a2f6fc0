import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsoleSessionTokenBinding1795470000002 implements MigrationInterface {
  name = 'ConsoleSessionTokenBinding1795470000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Nullable so the previous release can keep signing in during a rolling deploy; a session without the hash of
    // the admin token that opened it is never accepted (it ends at once, as after a token change).
    await queryRunner.query(`ALTER TABLE "console_sessions" ADD "admin_token_hash" bytea`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "console_sessions" DROP COLUMN "admin_token_hash"`);
  }
}
