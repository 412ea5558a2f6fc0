import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** The shared Idempotency-Key mechanism (docs/contracts/errors.md, docs/contracts/conventions.md), exercised through POST /contacts. */
describe('Idempotency-Key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const contact = (phone: string) => ({ title: 'Idem', phone });

  it('executes exactly one of many concurrent requests with the same key', async () => {
    const org = await createOrg(t);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        org.api.post('/api/v1/contacts', contact('+14155550111'), { headers: { 'idempotency-key': 'concurrent-1' } }),
      ),
    );
    const executed = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    expect(executed).toHaveLength(1);
    for (const r of responses) {
      if (r === executed[0]) continue;
      if (r.status === 201) {
        expect(r.headers.get('idempotent-replayed')).toBe('true');
        expect(r.body).toEqual(executed[0].body);
      } else {
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
      }
    }
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1', [org.id]);
    expect(rows[0].n).toBe(1);
  });

  it('replays the first response with Idempotent-Replayed: true', async () => {
    const org = await createOrg(t);
    const first = await org.api.post('/api/v1/contacts', contact('+14155550112'), {
      headers: { 'idempotency-key': 'k2' },
    });
    const again = await org.api.post('/api/v1/contacts', contact('+14155550112'), {
      headers: { 'idempotency-key': 'k2' },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers the same key with another body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const org = await createOrg(t);
    await org.api.post('/api/v1/contacts', contact('+14155550113'), { headers: { 'idempotency-key': 'k3' } });
    const other = await org.api.post('/api/v1/contacts', contact('+14155550114'), {
      headers: { 'idempotency-key': 'k3' },
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('scopes keys to the organization', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const ra = await a.api.post('/api/v1/contacts', contact('+14155550115'), {
      headers: { 'idempotency-key': 'shared' },
    });
    const rb = await b.api.post('/api/v1/contacts', contact('+14155550115'), {
      headers: { 'idempotency-key': 'shared' },
    });
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect(rb.body.data.id).not.toBe(ra.body.data.id);
  });

  it('releases the key when the request fails, so a corrected retry executes', async () => {
    const org = await createOrg(t);
    const bad = await org.api.post(
      '/api/v1/contacts',
      { title: '', phone: '+14155550116' },
      { headers: { 'idempotency-key': 'k5' } },
    );
    expect(bad.status).toBe(400);
    const good = await org.api.post('/api/v1/contacts', contact('+14155550116'), {
      headers: { 'idempotency-key': 'k5' },
    });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects an unusable key with 400 VALIDATION_ERROR', async () => {
    const org = await createOrg(t);
    const res = await org.api.post('/api/v1/contacts', contact('+14155550117'), {
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain('Idempotency-Key');
  });
});
