import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voicemail policies (outbound assistants, cases, campaigns) and post-call analysis plans (cases); on calls, the
 * policy, plan and case keyterms resolved when the call was created, who answered, and the analysis produced
 * at its end.
 */
export class CallOutcomes1795483100000 implements MigrationInterface {
  name = 'CallOutcomes1795483100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbound_assistants" ADD "voicemail" jsonb`);
    await queryRunner.query(`ALTER TABLE "cases" ADD "voicemail" jsonb`);
    await queryRunner.query(`ALTER TABLE "cases" ADD "analysis" jsonb`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "voicemail" jsonb`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "voicemail" jsonb`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "analysis_plan" jsonb`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "answered_by" text`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "analysis" jsonb`);
    await queryRunner.query(`ALTER TABLE "calls" ADD "keyterms" text array`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "keyterms"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "analysis"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "answered_by"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "analysis_plan"`);
    await queryRunner.query(`ALTER TABLE "calls" DROP COLUMN "voicemail"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "voicemail"`);
    await queryRunner.query(`ALTER TABLE "cases" DROP COLUMN "analysis"`);
    await queryRunner.query(`ALTER TABLE "cases" DROP COLUMN "voicemail"`);
    await queryRunner.query(`ALTER TABLE "outbound_assistants" DROP COLUMN "voicemail"`);
  }
}
