import { createHmac } from 'node:crypto';
import type { AppConfig } from '../../../../infra/config/app-config';
import { Metrics } from '../../../../infra/metrics/metrics';
import { SIGNATURE_WINDOW_MS, VapiMessageAuthenticator } from './vapi-message-authenticator';

const SECRET = 'the-shared-secret';
const NOW = 1_764_000_000_000;
const body = Buffer.from('{"message":{"type":"status-update"}}');
const sign = (timestamp: string, raw: Buffer = body, secret = SECRET) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex');

describe('VapiMessageAuthenticator', () => {
  const refused = { inc: jest.fn() };
  const metrics = { voiceMessagesRefused: refused } as unknown as Metrics;
  const auth = new VapiMessageAuthenticator({ vapi: { webhookSecret: SECRET } } as AppConfig, metrics);
  const hmac = (timestamp: string, signature = sign(timestamp)) =>
    auth.authenticate({ 'x-timestamp': timestamp, 'x-signature': signature }, body, NOW);

  it('accepts an HMAC timestamp in milliseconds or seconds, up to the window either way', () => {
    expect(hmac(String(NOW))).toBe('hmac');
    expect(hmac(String(NOW / 1000))).toBe('hmac');
    expect(hmac(String(NOW - SIGNATURE_WINDOW_MS))).toBe('hmac');
    expect(hmac(String(NOW + SIGNATURE_WINDOW_MS))).toBe('hmac');
    expect(hmac(String(NOW), sign(String(NOW)).toUpperCase())).toBe('hmac');
  });

  it('refuses one millisecond past the window, a non-numeric timestamp, and a signature of other bytes', () => {
    expect(hmac(String(NOW - SIGNATURE_WINDOW_MS - 1))).toBeNull();
    expect(hmac(String(NOW + SIGNATURE_WINDOW_MS + 1))).toBeNull();
    expect(hmac('1e12', sign('1e12'))).toBeNull();
    expect(hmac(String(NOW), sign(String(NOW), Buffer.from('{}')))).toBeNull();
    expect(auth.authenticate({ 'x-signature': sign(String(NOW)) }, body, NOW)).toBeNull();
  });

  it('takes the Bearer and legacy schemes, and counts every refusal by the scheme presented', () => {
    refused.inc.mockClear();
    expect(auth.authenticate({ authorization: `Bearer ${SECRET}` }, body, NOW)).toBe('bearer');
    expect(auth.authenticate({ 'x-vapi-secret': SECRET }, body, NOW)).toBe('legacy');
    expect(auth.authenticate({ authorization: `Basic ${SECRET}` }, body, NOW)).toBeNull();
    expect(auth.authenticate({ 'x-vapi-secret': `${SECRET}x` }, body, NOW)).toBeNull();
    expect(auth.authenticate({}, body, NOW)).toBeNull();
    expect(refused.inc.mock.calls).toEqual([[{ scheme: 'bearer' }], [{ scheme: 'legacy' }], [{ scheme: 'none' }]]);
  });

  it('refuses everything when no secret is configured', () => {
    const open = new VapiMessageAuthenticator({ vapi: {} } as AppConfig, metrics);
    expect(open.authenticate({ authorization: 'Bearer ' }, body, NOW)).toBeNull();
    expect(open.authenticate({ 'x-vapi-secret': '' }, body, NOW)).toBeNull();
  });
});
