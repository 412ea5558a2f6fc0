import { createHmac } from 'node:crypto';
import { newSigningSecret, signatureMac, signingKey } from './signature';

describe('signingKey', () => {
  // Written from RFC 2104's words, not from our signer: HMAC-SHA256 with the secret itself as the key.
  const byHand = (secret: string, raw: string, t: number) =>
    createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${raw}`).digest('hex');

  it.each([
    ['one of ours (longer than the block)', newSigningSecret()],
    ['a short one', 'whsec_short'],
    ['exactly the block', 'x'.repeat(64)],
    ['one byte past the block, multi-byte characters', 'é'.repeat(33)],
  ])('signs as the secret does: %s', (_, secret) => {
    const raw = '{"event":"contact.created"}';
    expect(signatureMac(signingKey(secret), raw, 1_700_000_000).toString('hex')).toBe(
      byHand(secret, raw, 1_700_000_000),
    );
  });
});
