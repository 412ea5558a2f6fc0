import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks `X-Webhook-Signature` (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`) over the raw request body,
 * in constant time, and refuses a timestamp further than `toleranceSeconds` from now.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isInteger(t) || !v1 || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
