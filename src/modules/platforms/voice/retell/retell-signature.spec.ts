import { createHmac } from 'node:crypto';
import { sign, verify } from 'retell-sdk';
import { RETELL_SIGNATURE_WINDOW_MS, verifyRetellSignature } from './retell-signature';

const API_KEY = 'key_retell_test_0123456789abcdef';
const body = '{"event":"call_started","call":{"call_id":"c1"}}';
const digest = (timestamp: number, raw = body, key = API_KEY) =>
  createHmac('sha256', key)
    .update(raw + String(timestamp))
    .digest('hex');

describe('verifyRetellSignature', () => {
  it("accepts what the SDK's sign produces, as the SDK's verify does", async () => {
    for (const raw of [body, '{}', '{"emoji":"☎️ ü"}']) {
      const header = await sign(raw, API_KEY);
      expect(await verify(raw, API_KEY, header)).toBe(true);
      expect(verifyRetellSignature(Buffer.from(raw), API_KEY, header)).toBe(true);
    }
  });

  it('accepts the edges of the 5-minute window either way, and an upper-case digest', () => {
    const now = 1_764_000_000_000;
    for (const at of [now - RETELL_SIGNATURE_WINDOW_MS, now + RETELL_SIGNATURE_WINDOW_MS]) {
      expect(verifyRetellSignature(body, API_KEY, `v=${at},d=${digest(at)}`, now)).toBe(true);
    }
    expect(verifyRetellSignature(body, API_KEY, `v=${now},d=${digest(now).toUpperCase()}`, now)).toBe(true);
  });

  it('refuses 8 malformed or wrong signatures, and so does the SDK', async () => {
    const now = Date.now();
    const good = digest(now);
    const refused = [
      undefined,
      '',
      `d=${good}`, // no timestamp
      `v=${now}`, // no digest
      `v=${now},d=${good.slice(1)}`, // a digest one hex digit short
      `v=${now},d=${'z'.repeat(64)}`, // not hex
      `v=${now - RETELL_SIGNATURE_WINDOW_MS - 1000},d=${digest(now - RETELL_SIGNATURE_WINDOW_MS - 1000)}`, // too old
      `v=${now},d=${digest(now, body, 'another-key')}`, // another key
      `v=${now},d=${digest(now, body + ' ')}`, // other bytes
      `v=${now + 1},d=${good}`, // the timestamp is signed too
    ];
    for (const header of refused) {
      expect([header, verifyRetellSignature(body, API_KEY, header, now)]).toEqual([header, false]);
      if (header !== undefined) expect([header, await verify(body, API_KEY, header)]).toEqual([header, false]);
    }
  });
});
