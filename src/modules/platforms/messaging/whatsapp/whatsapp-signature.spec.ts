import { hubSignature, isValidHubSignature } from './whatsapp-signature';

describe('X-Hub-Signature-256', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it('accepts the HMAC of the exact raw body', () => {
    expect(isValidHubSignature(body, hubSignature(body, 'secret'), 'secret')).toBe(true);
  });

  it('rejects another secret, another body, a missing or malformed header', () => {
    expect(isValidHubSignature(body, hubSignature(body, 'other'), 'secret')).toBe(false);
    expect(isValidHubSignature(Buffer.from(`${body} `), hubSignature(body, 'secret'), 'secret')).toBe(false);
    expect(isValidHubSignature(body, undefined, 'secret')).toBe(false);
    expect(isValidHubSignature(body, hubSignature(body, 'secret').replace('sha256=', 'sha1='), 'secret')).toBe(false);
    expect(isValidHubSignature(body, 'sha256=abc', 'secret')).toBe(false);
  });
});
