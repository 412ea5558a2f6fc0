import { TestApp, startTestApp } from '../support/test-app';

describe('security headers, CORS and body limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sets helmet headers on API responses and errors', async () => {
    const res = await t.anonymous.get('/api/v1/contacts');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('keeps Swagger UI working under the Content-Security-Policy (its assets load from our origin)', async () => {
    const page = await t.anonymous.get('/docs');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    // Every script and stylesheet the page references is served by us.
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset.startsWith('http')).toBe(false);
      expect((await t.anonymous.get(new URL(asset, `${t.baseUrl}/docs`).pathname)).status).toBe(200);
    }
  });

  it('answers no CORS headers by default', async () => {
    const res = await t.anonymous.get('/health/live', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await t.anonymous.request('OPTIONS', '/api/v1/contacts', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows exactly the CORS_ORIGINS when configured', async () => {
    const peer = await t.startPeer({ CORS_ORIGINS: 'https://dashboard.example' });
    const allowed = await fetch(`${peer.baseUrl}/health/live`, { headers: { origin: 'https://dashboard.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dashboard.example');
    const other = await fetch(`${peer.baseUrl}/health/live`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses bodies over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.admin.post('/admin/v1/organizations', { name: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
