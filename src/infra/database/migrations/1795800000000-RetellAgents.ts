import { MigrationInterface, QueryRunner } from 'typeorm';

export class RetellAgents1795800000000 implements MigrationInterface {
  name = 'RetellAgents1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "retell_agents" ("organization_id" uuid NOT NULL, "source" text NOT NULL, "spec_hash" text NOT NULL, "llm_id" text NOT NULL, "agent_id" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_retell_agents" PRIMARY KEY ("organization_id", "source"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "retell_agents"`);
  }
}
