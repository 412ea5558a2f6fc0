import { MigrationInterface, QueryRunner } from 'typeorm';

/** A person's verdict on who answered a call, the truth answer detection is measured against. */
export class CallLabels1795730000000 implements MigrationInterface {
  name = 'CallLabels1795730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "call_labels" ("call_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "livemode" boolean NOT NULL, "answered_by" text NOT NULL, "note" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_call_labels" PRIMARY KEY ("call_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_call_labels_world" ON "call_labels" ("organization_id", "livemode") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_call_labels_world"`);
    await queryRunner.query(`DROP TABLE "call_labels"`);
  }
}
