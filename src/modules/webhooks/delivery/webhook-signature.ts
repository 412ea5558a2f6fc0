import { createHmac } from 'node:crypto';

/**
 * `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (spec delivery rule 2), the scheme Stripe's
 * `webhooks.constructEvent` verifies, so receivers can use an off-the-shelf verifier.
 */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
