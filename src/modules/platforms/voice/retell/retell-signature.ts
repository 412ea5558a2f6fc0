import { createHmac, timingSafeEqual } from 'node:crypto';

/** Retell signs within this window of now, either way (its SDK's `verify` default). */
export const RETELL_SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

const SIGNATURE = /^v=(\d+),d=([0-9a-f]{64})$/i;

/**
 * Retell's webhook signature (docs/providers.md, "Retell"): header `x-retell-signature: v=<ms>,d=<hex>`, where the
 * digest is HMAC-SHA256 of the raw body followed by the timestamp, keyed with the API key. Accepted exactly when
 * the SDK's `verify` accepts: the form, a timestamp within 5 minutes of `now`, and the digest (compared in
 * constant time).
 */
export function verifyRetellSignature(
  rawBody: Buffer | string,
  apiKey: string,
  header: string | undefined,
  now = Date.now(),
): boolean {
  const match = header ? SIGNATURE.exec(header) : null;
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (!Number.isSafeInteger(timestamp) || Math.abs(now - timestamp) > RETELL_SIGNATURE_WINDOW_MS) return false;
  const expected = createHmac('sha256', apiKey).update(rawBody).update(match[1]).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}
