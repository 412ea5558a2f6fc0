import { MigrationInterface, QueryRunner } from 'typeorm';

export class Automations1795332186369 implements MigrationInterface {
  name = 'Automations1795332186369';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "follow_up_campaigns" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "case_id" uuid, "assistant_config_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a8fe9605a6f5f4628b0ef2fbb12" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_fd0b3593d65c4ee1ab7fd16190" ON "follow_up_campaigns"  ("organization_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_follow_up_campaigns_assistant" ON "follow_up_campaigns"  ("assistant_config_id") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_follow_up_campaigns_case" ON "follow_up_campaigns"  ("case_id") `);
    await queryRunner.query(
      `CREATE TABLE "recurring_schedules" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "case_id" uuid, "assistant_config_id" uuid, "status" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_38d45a0ba9ad357cd3545e1dcba" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_1e17bbd68a824cfd066f53bb3b" ON "recurring_schedules"  ("organization_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_recurring_schedules_assistant" ON "recurring_schedules"  ("assistant_config_id") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_recurring_schedules_case" ON "recurring_schedules"  ("case_id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_recurring_schedules_case"`);
    await queryRunner.query(`DROP INDEX "public"."ix_recurring_schedules_assistant"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1e17bbd68a824cfd066f53bb3b"`);
    await queryRunner.query(`DROP TABLE "recurring_schedules"`);
    await queryRunner.query(`DROP INDEX "public"."ix_follow_up_campaigns_case"`);
    await queryRunner.query(`DROP INDEX "public"."ix_follow_up_campaigns_assistant"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fd0b3593d65c4ee1ab7fd16190"`);
    await queryRunner.query(`DROP TABLE "follow_up_campaigns"`);
  }
}
