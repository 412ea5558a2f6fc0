import { generateApiKey, hashApiKey, hashesEqual, isWellFormedKey, keyHint } from './api-key-secret';

describe('API key secrets', () => {
  it('generates distinct well-formed keys whose random part is 43 base62 characters (256 bits), split on _', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('live')));
    expect(keys.size).toBe(1000);
    const seen = new Set<string>();
    for (const key of keys) {
      expect(isWellFormedKey(key)).toBe(true);
      const parts = key.split('_');
      expect(parts).toHaveLength(3);
      expect(parts.slice(0, 2)).toEqual(['vc', 'live']);
      expect(parts[2]).toMatch(/^[A-Za-z0-9]{43}$/);
      for (const c of parts[2]) seen.add(c);
    }
    expect(seen.size).toBe(62); // every base62 character is used
  });

  it('keeps accepting keys issued before base62 (base64url random part)', () => {
    expect(isWellFormedKey('vc_test_jH2toHW9e8OPnlMkw3RNQAMmYdn7oBZ5GNkiA9inX-U')).toBe(true);
    expect(isWellFormedKey('vc_live_a_b-cdefghijklmnopqrstuvwxyz0123456789AB')).toBe(true);
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
