import { MigrationInterface, QueryRunner } from 'typeorm';
import { SigningSecrets, signingKeyOf } from '../../secrets/signing-secrets';

const TABLES = ['webhook_endpoints', 'tools'] as const;

/**
 * Webhook endpoints' and function tools' signing secrets were stored as they are; they are now sealed with
 * SECRETS_KEY (src/infra/secrets/signing-secrets.ts), and the code reads sealed values only. This seals every
 * stored one in place, with the key of this process's environment (the one it then serves with; production
 * refuses to run without SECRETS_KEY). A value already sealed (`v1.` prefix, which no generated secret has) is
 * left alone, so running it on a partly sealed table is harmless. `down` opens them again for the older code.
 */
export class SealedSigningSecrets1795820000000 implements MigrationInterface {
  name = 'SealedSigningSecrets1795820000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, (secrets, value) => (value.startsWith('v1.') ? null : secrets.seal(value)));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, (secrets, value) => (value.startsWith('v1.') ? secrets.open(value) : null));
  }

  /** Each row's new value, or null to leave it; in batches so a large table is never held in memory at once. */
  private async rewrite(
    queryRunner: QueryRunner,
    change: (secrets: SigningSecrets, value: string) => string | null,
  ): Promise<void> {
    const secrets = new SigningSecrets(signingKeyOf(process.env));
    for (const table of TABLES) {
      let after = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const rows: Array<{ id: string; secret: string }> = await queryRunner.query(
          `SELECT id, secret FROM "${table}" WHERE secret IS NOT NULL AND id > $1 ORDER BY id LIMIT 500`,
          [after],
        );
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        const changed = rows.flatMap((row) => {
          const value = change(secrets, row.secret);
          return value === null ? [] : [{ id: row.id, value }];
        });
        if (!changed.length) continue;
        await queryRunner.query(
          `UPDATE "${table}" t SET secret = v.secret FROM unnest($1::uuid[], $2::text[]) AS v(id, secret)
            WHERE t.id = v.id`,
          [changed.map((c) => c.id), changed.map((c) => c.value)],
        );
      }
    }
  }
}
