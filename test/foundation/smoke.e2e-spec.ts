import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('serves the organization bound to a key', async () => {
    const org = await createOrg(t, { name: 'Acme' });
    const res = await org.api.get('/api/v1/organization');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: org.id, name: 'Acme' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
