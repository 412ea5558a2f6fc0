import { randomUUID } from 'node:crypto';
import { OutboxRow, bodyOf } from '../support/event-bodies';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

describe('contacts: create, update, delete', () => {
  let t: TestApp;
  let org: TestOrg;
  let phoneSeq = 0;
  /** A fresh, valid US number per call so tests never collide on the unique phone. */
  const nextPhone = () => `+1415555${String(1000 + phoneSeq++).padStart(4, '0')}`;
  const group = async (o: TestOrg, name: string): Promise<string> => {
    const res = await t.admin.post(`/admin/v1/organizations/${o.id}/contact-groups`, { name });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  /** The contact's events of a type: their organization, and their webhook body rendered now. */
  const outboxRows = async (type: string, contactId: string) => {
    const { rows } = await t.db.query<OutboxRow>(
      `SELECT type, organization_id, livemode, data FROM outbox_events WHERE type = $1 AND data->>'contactId' = $2`,
      [type, contactId],
    );
    return Promise.all(rows.map(async (row) => ({ organization_id: row.organization_id, data: await bodyOf(t, row) })));
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t?.close());

  it('creates a contact, normalising the phone, and returns the full Contact with customFields', async () => {
    const res = await org.api.post('/api/v1/contacts', {
      title: 'Alice Smith',
      phone: '+1 (415) 555-0123',
      email: 'alice@example.com',
      notes: 'Afternoons',
      tags: ['vip', 'vip', 'gold'],
      customFields: { plan: 'gold', seats: 3 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      title: 'Alice Smith',
      phone: '+14155550123',
      email: 'alice@example.com',
      notes: 'Afternoons',
      tags: ['vip', 'gold'],
      customFields: { plan: 'gold', seats: 3 },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      livemode: true,
    });
    const got = await org.api.get(`/api/v1/contacts/${res.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('defaults optional fields: email and notes null, no tags, empty customFields', async () => {
    const res = await org.api.post('/api/v1/contacts', { title: 'Bare', phone: nextPhone() });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: null, notes: null, tags: [], customFields: {} });
  });

  describe('every limit is a 400 VALIDATION_ERROR naming the field', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['title missing', { title: undefined }, 'title'],
      ['title empty', { title: '' }, 'title'],
      ['title over 200', { title: 'x'.repeat(201) }, 'title'],
      ['title not a string', { title: 42 }, 'title'],
      ['phone missing', { phone: undefined }, 'phone'],
      ['phone not E.164', { phone: '4155550123' }, 'phone'],
      ['phone nonsense', { phone: '+12' }, 'phone'],
      ['email malformed', { email: 'not-an-email' }, 'email'],
      ['notes over 5000', { notes: 'n'.repeat(5001) }, 'notes'],
      ['tags over 20', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      ['a tag over 50', { tags: ['x'.repeat(51)] }, 'tags'],
      ['an empty tag', { tags: [''] }, 'tags'],
      ['tags not an array', { tags: 'vip' }, 'tags'],
      ['groupIds over 20', { groupIds: Array.from({ length: 21 }, () => randomUUID()) }, 'groupIds'],
      ['groupIds not uuids', { groupIds: ['abc'] }, 'groupIds'],
      ['groupIds unknown group', { groupIds: [randomUUID()] }, 'groupIds'],
      ['customFields an array', { customFields: [1, 2] }, 'customFields'],
      ['customFields a string', { customFields: 'x' }, 'customFields'],
    ];
    it.each(cases)('%s', async (_name, override, field) => {
      const body = { title: 'Limit', phone: nextPhone(), ...override };
      const res = await org.api.post('/api/v1/contacts', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.message).toContain(field);
    });

    it('accepts the boundaries: title 200, notes 5000, 20 tags of 50, 20 groupIds', async () => {
      const groups = await Promise.all(Array.from({ length: 20 }, (_, i) => group(org, `G${i}`)));
      const res = await org.api.post('/api/v1/contacts', {
        title: 't'.repeat(200),
        phone: nextPhone(),
        notes: 'n'.repeat(5000),
        tags: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(50, 'x')),
        groupIds: groups,
      });
      expect(res.status).toBe(201);
    });

    it('rejects null for fields that cannot be cleared on PATCH, and limits on PATCH too', async () => {
      const id = (await org.api.post('/api/v1/contacts', { title: 'P', phone: nextPhone() })).body.data.id;
      for (const [body, field] of [
        [{ title: null }, 'title'],
        [{ phone: null }, 'phone'],
        [{ tags: null }, 'tags'],
        [{ customFields: null }, 'customFields'],
        [{ notes: 'n'.repeat(5001) }, 'notes'],
        [{ groupIds: [randomUUID()] }, 'groupIds'],
      ] as const) {
        const res = await org.api.patch(`/api/v1/contacts/${id}`, body);
        expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
          400,
          'VALIDATION_ERROR',
          expect.stringContaining(field),
        ]);
      }
    });
  });

  it('409 CONFLICT for a phone already used in the organization, in any spelling', async () => {
    const phone = nextPhone();
    expect((await org.api.post('/api/v1/contacts', { title: 'First', phone })).status).toBe(201);
    const spaced = `${phone.slice(0, 2)} ${phone.slice(2, 5)} ${phone.slice(5)}`;
    const dup = await org.api.post('/api/v1/contacts', { title: 'Second', phone: spaced });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
  });

  it('the same phone is fine in another organization', async () => {
    const other = await createOrg(t);
    const phone = nextPhone();
    expect((await org.api.post('/api/v1/contacts', { title: 'A', phone })).status).toBe(201);
    expect((await other.api.post('/api/v1/contacts', { title: 'B', phone })).status).toBe(201);
  });

  it('concurrent creates of one phone: exactly one 201, the rest 409', async () => {
    const phone = nextPhone();
    const since = (await t.db.query('SELECT max(id) AS id FROM outbox_events')).rows[0].id ?? 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => org.api.post('/api/v1/contacts', { title: `Racer ${i}`, phone })),
    );
    const outcomes = results.map((r) => (r.status === 201 ? '201' : `${r.status} ${r.body.error.code}`)).sort();
    expect(outcomes).toEqual(['201', ...Array(9).fill('409 CONFLICT')]);
    const rows = await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1 AND phone = $2', [
      org.id,
      phone,
    ]);
    expect(rows.rows[0].n).toBe(1);
    const events = await t.db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND type = 'contact.created' AND id > $2`,
      [org.id, since],
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('PATCH onto a phone taken by another contact is 409; onto its own phone is fine', async () => {
    const taken = nextPhone();
    await org.api.post('/api/v1/contacts', { title: 'Holder', phone: taken });
    const mine = nextPhone();
    const id = (await org.api.post('/api/v1/contacts', { title: 'Mover', phone: mine })).body.data.id;
    const clash = await org.api.patch(`/api/v1/contacts/${id}`, { phone: taken });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('CONFLICT');
    expect((await org.api.get(`/api/v1/contacts/${id}`)).body.data.phone).toBe(mine);
    expect((await org.api.patch(`/api/v1/contacts/${id}`, { phone: mine })).status).toBe(200);
  });

  it('PATCH changes only what is sent, replaces tags/customFields, clears email with null, returns notes', async () => {
    const created = await org.api.post('/api/v1/contacts', {
      title: 'Before',
      phone: nextPhone(),
      email: 'b@example.com',
      notes: 'keep me',
      tags: ['a', 'b'],
      customFields: { x: 1, y: 2 },
    });
    const id = created.body.data.id;
    const res = await org.api.patch(`/api/v1/contacts/${id}`, {
      title: 'After',
      email: null,
      tags: ['c'],
      customFields: { z: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...created.body.data,
      title: 'After',
      email: null,
      tags: ['c'],
      customFields: { z: 3 },
      notes: 'keep me',
    });
  });

  it('records contact.created, contact.updated and contact.deleted, each rendering the full Contact', async () => {
    const created = (await org.api.post('/api/v1/contacts', { title: 'Evented', phone: nextPhone(), notes: 'n1' })).body
      .data;
    const [createdRow] = await outboxRows('contact.created', created.id);
    expect(createdRow).toEqual({ organization_id: org.id, data: created });

    const updated = (await org.api.patch(`/api/v1/contacts/${created.id}`, { notes: 'n2' })).body.data;
    const [updatedRow] = await outboxRows('contact.updated', created.id);
    expect(updatedRow).toEqual({ organization_id: org.id, data: updated });
    expect(updatedRow.data?.notes).toBe('n2');

    expect((await org.api.delete(`/api/v1/contacts/${created.id}`)).status).toBe(204);
    // The row is gone: the deleted event renders the Contact as it was, recorded with the event.
    const [deletedRow] = await outboxRows('contact.deleted', created.id);
    expect(deletedRow).toEqual({ organization_id: org.id, data: updated });
    expect((await outboxRows('contact.updated', created.id))[0].data).toBeNull();
  });

  it('a failed create records no event (the event commits with the change or not at all)', async () => {
    const phone = nextPhone();
    const since = (await t.db.query('SELECT max(id) AS id FROM outbox_events')).rows[0].id ?? 0;
    await org.api.post('/api/v1/contacts', { title: 'Once', phone });
    await org.api.post('/api/v1/contacts', { title: 'Twice', phone });
    const events = await t.db.query(
      `SELECT c.title FROM outbox_events e LEFT JOIN contacts c ON c.id::text = e.data->>'contactId'
        WHERE e.organization_id = $1 AND e.id > $2`,
      [org.id, since],
    );
    expect(events.rows).toEqual([{ title: 'Once' }]);
  });

  it('delete is 204, then 404; memberships go with the contact, calls that reference it stay', async () => {
    const g = await group(org, 'Deletable members');
    const id = (await org.api.post('/api/v1/contacts', { title: 'Gone', phone: nextPhone(), groupIds: [g] })).body.data
      .id;
    // Fixture the API cannot make yet (calls are another module): a call that references the contact.
    const callId = randomUUID();
    await t.db.query(
      `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, contact_id)
       VALUES ($1, $2, 'ended', 'outbound', '+14155550000', '+14155550001', $3)`,
      [callId, org.id, id],
    );
    expect((await org.api.delete(`/api/v1/contacts/${id}`)).status).toBe(204);
    expect((await org.api.get(`/api/v1/contacts/${id}`)).status).toBe(404);
    expect((await org.api.delete(`/api/v1/contacts/${id}`)).status).toBe(404);
    const members = await t.db.query('SELECT count(*)::int AS n FROM contact_group_members WHERE contact_id = $1', [
      id,
    ]);
    expect(members.rows[0].n).toBe(0);
    const call = await t.db.query('SELECT contact_id FROM calls WHERE id = $1', [callId]);
    expect(call.rows).toEqual([{ contact_id: id }]);
  });

  it('contactCount of GET /contact-groups follows memberships set on create, replaced on update, dropped on delete', async () => {
    const o = await createOrg(t);
    const [g1, g2] = [await group(o, 'One'), await group(o, 'Two')];
    const count = async () =>
      Object.fromEntries(
        ((await o.api.get('/api/v1/contact-groups')).body.data as Array<{ id: string; contactCount: number }>).map(
          (g) => [g.id, g.contactCount],
        ),
      );
    const a = (await o.api.post('/api/v1/contacts', { title: 'A', phone: nextPhone(), groupIds: [g1, g2, g1] })).body
      .data.id;
    const b = (await o.api.post('/api/v1/contacts', { title: 'B', phone: nextPhone(), groupIds: [g1] })).body.data.id;
    expect(await count()).toEqual({ [g1]: 2, [g2]: 1 });
    expect((await o.api.patch(`/api/v1/contacts/${a}`, { groupIds: [g2] })).status).toBe(200);
    expect(await count()).toEqual({ [g1]: 1, [g2]: 1 });
    expect((await o.api.patch(`/api/v1/contacts/${b}`, { title: 'B2' })).status).toBe(200);
    expect(await count()).toEqual({ [g1]: 1, [g2]: 1 });
    await o.api.delete(`/api/v1/contacts/${b}`);
    expect(await count()).toEqual({ [g1]: 0, [g2]: 1 });
  });

  it("another organization's contact or group is invisible: 404 for ids, 400 for groupIds", async () => {
    const other = await createOrg(t);
    const foreignGroup = await group(other, 'Theirs');
    const id = (await other.api.post('/api/v1/contacts', { title: 'Theirs', phone: nextPhone() })).body.data.id;
    expect((await org.api.get(`/api/v1/contacts/${id}`)).status).toBe(404);
    expect((await org.api.patch(`/api/v1/contacts/${id}`, { title: 'Mine' })).status).toBe(404);
    expect((await org.api.delete(`/api/v1/contacts/${id}`)).status).toBe(404);
    expect((await other.api.get(`/api/v1/contacts/${id}`)).body.data.title).toBe('Theirs');
    const res = await org.api.post('/api/v1/contacts', { title: 'X', phone: nextPhone(), groupIds: [foreignGroup] });
    expect([res.status, res.body.error.message]).toEqual([400, expect.stringContaining('groupIds')]);
    expect((await org.api.get('/api/v1/contacts/not-a-uuid')).status).toBe(400);
  });

  it('Idempotency-Key replays the first 201 with Idempotent-Replayed: true and creates once', async () => {
    const body = { title: 'Idem', phone: nextPhone() };
    const headers = { 'idempotency-key': `k-${randomUUID()}` };
    const first = await org.api.post('/api/v1/contacts', body, { headers });
    const again = await org.api.post('/api/v1/contacts', body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await org.api.post('/api/v1/contacts', { ...body, title: 'Other' }, { headers });
    expect(reused.status).toBe(422);
    const n = await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE phone = $1', [body.phone]);
    expect(n.rows[0].n).toBe(1);
  });

  it('scopes: contacts:read cannot write', async () => {
    const reader = await org.keyWith(['contacts:read']);
    expect((await reader.api.get('/api/v1/contacts')).status).toBe(200);
    const res = await reader.api.post('/api/v1/contacts', { title: 'No', phone: nextPhone() });
    expect([res.status, res.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });
});
