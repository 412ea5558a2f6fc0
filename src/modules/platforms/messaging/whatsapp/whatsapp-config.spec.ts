import { DEFAULT_GRAPH_URL, isMediaHost } from './whatsapp-config';

describe('isMediaHost', () => {
  it("allows Meta's media domains and their subdomains, and the Graph API's own host", () => {
    expect(isMediaHost('https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', DEFAULT_GRAPH_URL)).toBe(
      true,
    );
    expect(isMediaHost('https://scontent.xx.fbcdn.net/v/t45/1.jpg', DEFAULT_GRAPH_URL)).toBe(true);
    expect(isMediaHost('https://mmg.whatsapp.net/d/f/1.enc', DEFAULT_GRAPH_URL)).toBe(true);
    expect(isMediaHost('https://graph.facebook.com/v25.0/1', DEFAULT_GRAPH_URL)).toBe(true);
    expect(isMediaHost('http://127.0.0.1:4000/media-files/1', 'http://127.0.0.1:4000/v25.0')).toBe(true);
  });

  it('refuses any other host, look-alikes included', () => {
    expect(isMediaHost('https://example.com/file', DEFAULT_GRAPH_URL)).toBe(false);
    expect(isMediaHost('https://fbsbx.com.evil.example/file', DEFAULT_GRAPH_URL)).toBe(false);
    expect(isMediaHost('https://evilfbsbx.com/file', DEFAULT_GRAPH_URL)).toBe(false);
    expect(isMediaHost('http://localhost:4000/media-files/1', 'http://127.0.0.1:4000/v25.0')).toBe(false);
    expect(isMediaHost('not a url', DEFAULT_GRAPH_URL)).toBe(false);
  });
});
