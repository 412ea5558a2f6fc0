import { createOrg, TestOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '+010000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
];

/** Dates in queries outside the years 1970-9999 are 400 VALIDATION_ERROR naming the field, never a 500. */
describe('dates outside 1970-9999', () => {
  let t: TestApp;
  let org: TestOrg;
  let endpointId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true' } });
    org = await createOrg(t);
    endpointId = (
      await org.api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/in', events: ['contact.created'] })
    ).body.data.id;
  });
  afterAll(() => t?.close());

  const routes = () => [
    { path: '/api/v1/calls', fields: ['from', 'to'] },
    { path: '/api/v1/usage/history', fields: ['from', 'to'] },
  ];

  it.each(OUT_OF_RANGE)('GET list filters refuse %s', async (value) => {
    for (const { path, fields } of routes()) {
      for (const field of fields) {
        const res = await org.api.get(`${path}?${field}=${encodeURIComponent(value)}`);
        expect({ path, field, status: res.status, code: res.body.error?.code }).toEqual({
          path,
          field,
          status: 400,
          code: 'VALIDATION_ERROR',
        });
        expect(res.body.error.message).toContain(field);
      }
    }
    const recover = await org.api.post(`/api/v1/webhooks/${endpointId}/recover?since=${encodeURIComponent(value)}`, {});
    expect({ status: recover.status, code: recover.body.error?.code }).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses such dates in bodies too (scheduledAt, an API key expiry), naming the field', async () => {
    const call = await org.api.post('/api/v1/calls', {
      to: '+14155550123',
      from: '+14155550100',
      scheduledAt: '+010000-01-01T00:00:00Z',
    });
    expect(call.status).toBe(400);
    expect(call.body.error.details).toEqual([
      { field: 'scheduledAt', message: expect.stringContaining('1970 and 9999') },
    ]);
    const key = await t.admin.post(`/admin/v1/organizations/${org.id}/api-keys`, {
      scopes: ['*'],
      expiresAt: '0000-01-01T00:00:00Z',
    });
    expect(key.status).toBe(400);
    expect(key.body.error.details[0].field).toBe('expiresAt');
  });

  it('accepts the bounds themselves', async () => {
    for (const value of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      for (const { path, fields } of routes()) {
        for (const field of fields) {
          const res = await org.api.get(`${path}?${field}=${encodeURIComponent(value)}`);
          expect({ path, field, value, status: res.status }).toEqual({ path, field, value, status: 200 });
        }
      }
    }
  });
});
