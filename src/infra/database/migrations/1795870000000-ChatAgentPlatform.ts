import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chat agent's platform stored on its row (`chat_agents.platform`), as a call's is: who answers an account's
 * conversations is data fixed when the agent is first set, never the process setting at the time it answers.
 *
 * Existing agents get the platform that answered them until now: a test account's the simulator, a live one's
 * Vapi when VOICE_PROVIDER names it in the environment this migration runs in (the setting that routed them),
 * else the simulator.
 */
export class ChatAgentPlatform1795870000000 implements MigrationInterface {
  name = 'ChatAgentPlatform1795870000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const chat = process.env.VOICE_PROVIDER === 'vapi' ? 'vapi' : 'simulator';
    // The column default is the platform that needs no credentials; every writer of the row names one.
    await queryRunner.query(`ALTER TABLE "chat_agents" ADD "platform" text NOT NULL DEFAULT 'simulator'`);
    await queryRunner.query(
      `UPDATE "chat_agents" g SET "platform" = $1
         FROM "messaging_accounts" a
        WHERE a."id" = g."account_id" AND a."livemode"`,
      [chat],
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chat_agents" DROP COLUMN "platform"`);
  }
}
