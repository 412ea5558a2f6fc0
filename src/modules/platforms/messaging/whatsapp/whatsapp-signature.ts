import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs each webhook body: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app
 * secret>`. Compared in constant time; the raw bytes matter, so the parsed JSON is never re-serialised for this.
 */
export function isValidHubSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function hubSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
