import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Until when each writer (an API key, or the admin) reads from the primary after a write (read-after-write.ts).
 * UNLOGGED: a mark lives a second or two and is worthless after a crash, so it costs no WAL and is never
 * replicated; one row per writer, overwritten, so the table stays as small as the number of keys.
 */
export class ReadAfterWriteMarks1795510000000 implements MigrationInterface {
  name = 'ReadAfterWriteMarks1795510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "read_after_write_marks" ("writer" text NOT NULL, "until" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_read_after_write_marks" PRIMARY KEY ("writer"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "read_after_write_marks"`);
  }
}
