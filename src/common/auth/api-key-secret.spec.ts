import { generateApiKey, hashApiKey, hashesEqual, isWellFormedKey, keyHint } from './api-key-secret';

describe('API key secrets', () => {
  it('generates distinct well-formed keys with 256 random bits', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('live')));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(isWellFormedKey(key)).toBe(true);
      expect(Buffer.from(key.slice('vc_live_'.length), 'base64url')).toHaveLength(32);
    }
  });

  it('hashes with SHA-256 and compares hashes exactly', () => {
    const key = generateApiKey('test');
    expect(hashApiKey(key)).toHaveLength(32);
    expect(hashesEqual(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(hashesEqual(hashApiKey(key), hashApiKey(`${key}x`))).toBe(false);
    expect(hashesEqual(hashApiKey(key), Buffer.alloc(16))).toBe(false);
  });

  it('rejects malformed keys before any lookup', () => {
    for (const bad of [
      '',
      'vc_prod_abcdefghijklmnopqrstuvwxyz',
      'vc_live_short',
      'vc-live-abcdefghijklmnopqrstuvwxyz',
    ]) {
      expect(isWellFormedKey(bad)).toBe(false);
    }
  });

  it('shows only a short non-secret hint', () => {
    const key = generateApiKey('live');
    expect(keyHint(key)).toBe(key.slice(0, 'vc_live_'.length + 4));
  });
});
