import { createHmac } from 'node:crypto';

/** HMAC-SHA256 of `"<t>.<raw body>"` with the endpoint's secret: what `v1` carries, for signing and verifying. */
export function signatureMac(secret: string, rawBody: string, unixSeconds: number | string): Buffer {
  return createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest();
}

/**
 * `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (spec delivery rule 2), the scheme Stripe's
 * `webhooks.constructEvent` verifies, so receivers can use an off-the-shelf verifier.
 */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${signatureMac(secret, rawBody, unixSeconds).toString('hex')}`;
}
