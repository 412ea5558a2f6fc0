import { isQuietRequest } from './quiet-requests';

describe('quiet requests', () => {
  it("quiets the console's static files and successful admin and public reads only", () => {
    expect(isQuietRequest('GET', '/console/assets/index-abc.js', 200)).toBe(true);
    expect(isQuietRequest('GET', '/console', 302)).toBe(true);
    expect(isQuietRequest('GET', '/admin/v1/organizations/x/calls?limit=25', 200)).toBe(true);
    expect(isQuietRequest('POST', '/admin/v1/organizations/x/campaigns', 201)).toBe(false);
    expect(isQuietRequest('GET', '/admin/v1/organizations/x/calls', 404)).toBe(false);
    expect(isQuietRequest('GET', '/api/v1/calls/0193', 200)).toBe(true);
    expect(isQuietRequest('GET', '/api/v1/calls/0193', 404)).toBe(false);
    expect(isQuietRequest('POST', '/api/v1/calls', 201)).toBe(false);
    expect(isQuietRequest('GET', '/platform/vapi/events', 200)).toBe(false);
    expect(isQuietRequest('GET', '/consoles', 200)).toBe(false);
  });
});
