import { KeyObject, createHash, createHmac, createSecretKey, randomBytes } from 'node:crypto';

/** SHA-256's block: HMAC first hashes a longer key down to a digest (RFC 2104, section 2). */
const HMAC_BLOCK_BYTES = 64;

/** A receiver's secret as given, or its HMAC key built once by `signingKey` (the same signatures). */
export type SigningSecret = string | KeyObject;

/** HMAC-SHA256 of `"<t>.<raw body>"` with the receiver's secret: what `v1` carries, for signing and verifying. */
export function signatureMac(secret: SigningSecret, rawBody: string, unixSeconds: number | string): Buffer {
  return createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest();
}

/**
 * The HMAC key a secret signs with, for one kept and used for many signatures: our secrets (`whsec_` and 64 hex
 * digits) are longer than the block, so HMAC would hash them on every signature; the digest signs identically.
 */
export function signingKey(secret: string): KeyObject {
  const bytes = Buffer.from(secret, 'utf8');
  return createSecretKey(bytes.length > HMAC_BLOCK_BYTES ? createHash('sha256').update(bytes).digest() : bytes);
}

/**
 * `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme Stripe's `webhooks.constructEvent` verifies,
 * so receivers can use an off-the-shelf verifier. Webhooks and function tools are signed alike
 * (docs/contracts/conventions.md, docs/tools.md).
 */
export function signatureHeader(secret: SigningSecret, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${signatureMac(secret, rawBody, unixSeconds).toString('hex')}`;
}

/** How a signed request names itself: `X-Webhook-Id` (the receiver's idempotency key) and the signature, now. */
export interface Signing {
  id: string;
  secret: SigningSecret;
}

/** The two headers of a signed request over exactly `rawBody`, signed with the current time. */
export function signedHeaders(signing: Signing, rawBody: string): Record<string, string> {
  return {
    'x-webhook-id': signing.id,
    'x-webhook-signature': signatureHeader(signing.secret, rawBody, Math.floor(Date.now() / 1000)),
  };
}

/**
 * A new signing secret (webhook endpoints, function tools): 256 random bits; the prefix makes a leaked secret
 * recognisable to secret scanners, and is the one off-the-shelf verifiers expect.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}
