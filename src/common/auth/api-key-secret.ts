import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'vc';
export type KeyEnvironment = 'live' | 'test';

// Keys issued before base62 carry base64url (`_` and `-`) in their random part; they keep working.
const KEY_PATTERN = /^([a-z]{2,10})_(live|test)_([A-Za-z0-9_-]{20,100})$/;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 43 base62 characters carry 256.03 bits (docs/contracts/bounds.md). */
export const KEY_RANDOM_LENGTH = 43;

/** Uniform base62 characters: bytes of 248 or more are dropped so `byte % 62` favours no character. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new key `<prefix>_<env>_<random>`, the random part base62 so the key splits on `_`. */
export function generateApiKey(environment: KeyEnvironment): string {
  return `${KEY_PREFIX}_${environment}_${randomBase62(KEY_RANDOM_LENGTH)}`;
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
