import type { KeyObject } from 'node:crypto';
import { signingKey } from '../../../common/outbound-http/signature';
import type { SigningSecrets } from '../../../infra/secrets/signing-secrets';
import { BoundedMap } from '../../../common/cache/bounded-map';

/**
 * Endpoints whose signing keys are kept: under 1 KB each (the sealed value, the 32-byte key and their objects), so
 * under 10 MB, and far more endpoints than a worker delivers to at once, so a busy endpoint stays in.
 */
export const KEPT_SIGNING_KEYS = 10_000;

/**
 * Each endpoint's signing key, opened from its sealed secret once instead of on every attempt (opening the seal
 * and building the key were 4 % of a delivery's CPU, BENCHMARKS.md). An entry is the key of one sealed value: a
 * rotation seals the new secret afresh (a new IV, so a new value), so the next attempt after it opens and keeps
 * the new one, and the old key is never used again. At most `bound` endpoints, the least recently used dropped.
 */
export class EndpointSigningKeys {
  /** By endpoint id, in order of last use: each use sets its entry again (BoundedMap keeps the most recent). */
  private readonly keys: BoundedMap<string, { sealed: string; key: KeyObject }>;

  constructor(
    private readonly secrets: SigningSecrets,
    bound = KEPT_SIGNING_KEYS,
  ) {
    this.keys = new BoundedMap(bound);
  }

  of(endpointId: string, sealed: string): KeyObject {
    const kept = this.keys.get(endpointId);
    const entry = kept?.sealed === sealed ? kept : { sealed, key: signingKey(this.secrets.open(sealed)) };
    this.keys.set(endpointId, entry);
    return entry.key;
  }
}
