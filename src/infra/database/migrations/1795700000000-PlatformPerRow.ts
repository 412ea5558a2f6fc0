import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform stored per row: a phone number's voice platform, a call's (with what dispatch used to re-read at
 * placement: the number's platform id and the assistant's voice settings) and a messaging account's.
 *
 * Existing rows get the platform the process would have derived for them until now: test-world calls and
 * accounts the simulator, everything else the platform VOICE_PROVIDER / MESSAGING_PROVIDER names in the
 * environment this migration runs in (the same process settings that routed them), so nothing already placed
 * moves. Unknown values fall back to the simulator, as the settings themselves did when unset.
 */
export class PlatformPerRow1795700000000 implements MigrationInterface {
  name = 'PlatformPerRow1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const voice = process.env.VOICE_PROVIDER === 'vapi' ? 'vapi' : 'simulator';
    const messaging = process.env.MESSAGING_PROVIDER === 'whatsapp' ? 'whatsapp' : 'simulator';
    // The column default is the platform that needs no credentials; every writer of these rows names one.
    await queryRunner.query(`ALTER TABLE "phone_numbers" ADD "platform" text NOT NULL DEFAULT 'simulator'`);
    await queryRunner.query(`UPDATE "phone_numbers" SET "platform" = $1`, [voice]);

    await queryRunner.query(
      `ALTER TABLE "calls" ADD "platform" text NOT NULL DEFAULT 'simulator', ADD "provider_number_id" text,
         ADD "voice_settings" jsonb`,
    );
    await queryRunner.query(`UPDATE "calls" SET "platform" = $1 WHERE livemode`, [voice]);
    // Calls still to be placed keep what their placement would have read: the number's id on the platform and
    // the named (else the default) outbound assistant's voice settings; a call without either gets the defaults.
    await queryRunner.query(
      `UPDATE "calls" c SET "provider_number_id" = n."provider_id"
         FROM "phone_numbers" n
        WHERE n."organization_id" = c."organization_id" AND n."number" = c."call_from"
          AND c."status" IN ('new', 'scheduled', 'lock-processing')`,
    );
    await queryRunner.query(
      `UPDATE "calls" c SET "voice_settings" = jsonb_build_object(
              'voice', a."voice", 'model', a."model", 'transcriber', a."transcriber",
              'dialKeypadFunctionEnabled', a."dial_keypad_function_enabled",
              'backchannelingEnabled', a."backchanneling_enabled",
              'backgroundDenoisingEnabled', a."background_denoising_enabled")
         FROM "outbound_assistants" a
        WHERE a."organization_id" = c."organization_id"
          AND (a."id" = c."assistant_config_id" OR (c."assistant_config_id" IS NULL AND a."is_default"))
          AND c."status" IN ('new', 'scheduled', 'lock-processing')`,
    );

    await queryRunner.query(`ALTER TABLE "messaging_accounts" ADD "platform" text NOT NULL DEFAULT 'simulator'`);
    await queryRunner.query(`UPDATE "messaging_accounts" SET "platform" = $1 WHERE livemode`, [messaging]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messaging_accounts" DROP COLUMN "platform"`);
    await queryRunner.query(
      `ALTER TABLE "calls" DROP COLUMN "voice_settings", DROP COLUMN "provider_number_id", DROP COLUMN "platform"`,
    );
    await queryRunner.query(`ALTER TABLE "phone_numbers" DROP COLUMN "platform"`);
  }
}
