import { SecretBox, parseSecretsKey } from './secret-box';

/**
 * The key sealing signing secrets outside production when SECRETS_KEY is unset, so the demo and tests run with no
 * configuration. It is published here, so it protects nothing: production requires SECRETS_KEY and refuses to
 * start without it (src/infra/config/app-config.ts).
 */
export const DEV_SIGNING_KEY = Buffer.from('dev-only-signing-key-not-secret!', 'utf8');

/**
 * The key signing secrets are sealed with, from the raw environment (the configuration and the migration that
 * sealed the stored rows read it alike): SECRETS_KEY, else the development key outside production. Throws in
 * production without a usable SECRETS_KEY.
 */
export function signingKeyOf(env: Record<string, string | undefined>): Buffer {
  const key = env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined;
  if (key) return key;
  if (env.NODE_ENV === 'production' || key === null) {
    throw new Error('SECRETS_KEY (32 bytes) is required to seal and open signing secrets');
  }
  return DEV_SIGNING_KEY;
}

/**
 * The signing secrets of webhook endpoints and function tools at rest. Every delivery computes an HMAC with the
 * secret, so it must be recoverable (a hash would not do): it is sealed with AES-256-GCM (SecretBox) when
 * written and opened when a request is signed or an idempotent create is replayed. Only the repositories that
 * store the secrets use this; everything above them sees the plain secret, and the column never holds it.
 */
export class SigningSecrets {
  private readonly box: SecretBox;

  constructor(key: Buffer) {
    this.box = new SecretBox(key);
  }

  seal(plain: string): string {
    return this.box.seal(plain);
  }

  /** The plain secret; throws when the stored value does not open with this key (SECRETS_KEY changed). */
  open(sealed: string): string {
    const plain = this.box.open(sealed);
    if (plain === null) throw new Error('A stored signing secret does not open with this SECRETS_KEY');
    return plain;
  }
}
