import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** `count` distinct valid US numbers (`+1` and ten digits) sharing a prefix. */
const phones = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(12 - prefix.length, '0')}`);

describe('contacts: POST /contacts/batch', () => {
  let t: TestApp;
  let org: TestOrg;
  const contactsOf = async (o: TestOrg) =>
    (await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1', [o.id])).rows[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  it('answers one result per row in order: created, exists (earlier row or stored) and refused with the reason', async () => {
    const existing = await org.api.post('/api/v1/contacts', { title: 'Stored', phone: '+14155810000' });
    expect(existing.status).toBe(201);
    const group = (await t.admin.post(`/admin/v1/organizations/${org.id}/contact-groups`, { name: 'VIP' })).body.data
      .id;
    const since = (await t.db.query('SELECT coalesce(max(id), 0) AS id FROM outbox_events')).rows[0].id;
    const res = await org.api.post('/api/v1/contacts/batch', {
      contacts: [
        { title: 'Ada', phone: '+14155810001', groupIds: [group], customFields: { plan: 'gold' } },
        { title: 'Stored again', phone: '+14155810000' },
        { title: 'No phone' },
        { title: 'Ada twice', phone: '+14155810001' },
        { title: 'Lost group', phone: '+14155810002', groupIds: ['00000000-0000-7000-8000-000000000000'] },
        5,
        { title: 'Grace', phone: '+14155810003' },
      ],
    });
    expect(res.status).toBe(200);
    const ada = res.body.data[0].id;
    expect(res.body.data).toEqual([
      { row: 0, status: 'created', id: expect.any(String) },
      { row: 1, status: 'exists', id: existing.body.data.id },
      {
        row: 2,
        status: 'refused',
        error: {
          code: 'VALIDATION_ERROR',
          message: 'phone is required',
          details: [{ field: 'phone', message: 'phone is required' }],
        },
      },
      { row: 3, status: 'exists', id: ada },
      {
        row: 4,
        status: 'refused',
        error: expect.objectContaining({
          code: 'VALIDATION_ERROR',
          details: [expect.objectContaining({ field: 'groupIds' })],
        }),
      },
      { row: 5, status: 'refused', error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
      { row: 6, status: 'created', id: expect.any(String) },
    ]);
    const stored = await org.api.get(`/api/v1/contacts/${ada}`);
    expect(stored.body.data).toMatchObject({ title: 'Ada', customFields: { plan: 'gold' } });
    const members = await t.db.query('SELECT contact_id FROM contact_group_members WHERE group_id = $1', [group]);
    expect(members.rows).toEqual([{ contact_id: ada }]);
    const { rows: events } = await t.db.query(
      `SELECT data->>'contactId' AS id FROM outbox_events WHERE organization_id = $1 AND type = 'contact.created' AND id > $2`,
      [org.id, since],
    );
    expect(events.map((e) => e.id).sort()).toEqual([ada, res.body.data[6].id].sort());
  });

  it('takes 1,000 rows and refuses 1,001 (or none) whole, creating nothing', async () => {
    const own = await createOrg(t);
    const rows = phones('+1415582', 1001).map((phone, i) => ({ title: `Person ${i}`, phone, tags: ['import'] }));
    const tooMany = await own.api.post('/api/v1/contacts/batch', { contacts: rows });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('VALIDATION_ERROR');
    expect((await own.api.post('/api/v1/contacts/batch', { contacts: [] })).status).toBe(400);
    expect(await contactsOf(own)).toBe(0);
    const res = await own.api.post('/api/v1/contacts/batch', { contacts: rows.slice(0, 1000) });
    expect(res.status).toBe(200);
    expect(res.body.data.filter((r: { status: string }) => r.status === 'created')).toHaveLength(1000);
    expect(await contactsOf(own)).toBe(1000);
  });

  it('replays under the same Idempotency-Key and needs contacts:write', async () => {
    const own = await createOrg(t);
    const keyed = own.api.withHeaders({ 'idempotency-key': 'import-1' });
    const body = { contacts: [{ title: 'Once', phone: '+14155830001' }] };
    const first = await keyed.post('/api/v1/contacts/batch', body);
    expect(first.body.data).toEqual([{ row: 0, status: 'created', id: expect.any(String) }]);
    const again = await keyed.post('/api/v1/contacts/batch', body);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const reader = await own.keyWith(['contacts:read']);
    const refused = await reader.api.post('/api/v1/contacts/batch', body);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
