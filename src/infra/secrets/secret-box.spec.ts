import { randomBytes } from 'node:crypto';
import { SecretBox, parseSecretsKey } from './secret-box';

describe('SecretBox (AES-256-GCM under SECRETS_KEY)', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never seals the same text to the same value', () => {
    const a = box.seal('EAAG-token');
    expect(box.open(a)).toBe('EAAG-token');
    expect(box.seal('EAAG-token')).not.toBe(a);
    expect(a).not.toContain('EAAG');
  });

  it('refuses another key or an altered value (null, not garbage)', () => {
    const sealed = box.seal('EAAG-token');
    expect(new SecretBox(randomBytes(32)).open(sealed)).toBeNull();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toBeNull();
    expect(box.open('not sealed')).toBeNull();
  });

  it('takes a key as 64 hex digits or base64 of 32 bytes, nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey('short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });
});
