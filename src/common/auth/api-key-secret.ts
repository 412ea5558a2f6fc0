import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'vc';
export type KeyEnvironment = 'live' | 'test';

const KEY_PATTERN = /^([a-z]{2,10})_(live|test)_([A-Za-z0-9_-]{20,100})$/;

/** A new key `<prefix>_<env>_<random>` with 256 bits of randomness (base64url). */
export function generateApiKey(environment: KeyEnvironment): string {
  return `${KEY_PREFIX}_${environment}_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and looked up only by their SHA-256; the plain key exists once, in the creation response. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Constant-time comparison of two hashes (defence in depth after the indexed lookup). */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A short, non-secret hint shown to operators to tell keys apart (e.g. `vc_live_Ab3d…`). */
export function keyHint(key: string): string {
  const match = KEY_PATTERN.exec(key);
  return match ? `${match[1]}_${match[2]}_${match[3].slice(0, 4)}` : key.slice(0, 8);
}
