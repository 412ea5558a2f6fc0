import { NAME_SQL, PHONE_DIGITS_SQL } from '../../src/modules/contacts/contact-text-match';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

describe('contacts: list filters, pagination and search', () => {
  let t: TestApp;
  let org: TestOrg;
  let vip: string;
  let ids: Record<string, string>;

  const create = async (o: TestOrg, body: Record<string, unknown>): Promise<string> => {
    const res = await o.api.post('/api/v1/contacts', body);
    if (res.status !== 201) throw new Error(`create failed ${res.status} ${res.text}`);
    return res.body.data.id;
  };
  const titles = (res: { body: { data: Array<{ title: string }> } }) => res.body.data.map((c) => c.title);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    vip = (await t.admin.post(`/admin/v1/organizations/${org.id}/contact-groups`, { name: 'VIP' })).body.data.id;
    ids = {};
    // Created one after another so "newest first" has a defined order.
    const fixtures: Array<Record<string, unknown>> = [
      { title: 'Alice Smith', phone: '+14155550123', email: 'alice@example.com', tags: ['vip', 'sf'], groupIds: [vip] },
      { title: 'Ali', phone: '+442071838750', tags: ['uk'] },
      { title: 'Bob Alison', phone: '+14155559876', tags: ['gold'], groupIds: [vip] },
      { title: 'Natalie Wood', phone: '+33142685300', tags: ['fr', 'gold'] },
      { title: 'Carol 100% Real_Name', phone: '+12125550100' },
      { title: 'Dave Brown', phone: '+61291234567' },
    ];
    for (const f of fixtures) ids[f.title as string] = await create(org, f);
  });
  afterAll(() => t?.close());

  describe('GET /contacts', () => {
    it('lists newest first with the list subset of fields', async () => {
      const res = await org.api.get('/api/v1/contacts');
      expect(res.status).toBe(200);
      expect(titles(res)).toEqual([
        'Dave Brown',
        'Carol 100% Real_Name',
        'Natalie Wood',
        'Bob Alison',
        'Ali',
        'Alice Smith',
      ]);
      expect(res.body.data[5]).toEqual({
        id: ids['Alice Smith'],
        title: 'Alice Smith',
        phone: '+14155550123',
        email: 'alice@example.com',
        tags: ['vip', 'sf'],
        createdAt: expect.any(String),
        livemode: true,
      });
      expect(res.body.pagination).toEqual({ cursor: null, hasMore: false, pageSize: 25 });
    });

    it('search matches name substrings case-insensitively', async () => {
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: 'ALI' } }))).toEqual([
        'Natalie Wood',
        'Bob Alison',
        'Ali',
        'Alice Smith',
      ]);
    });

    it('search matches phone digits, however the number is written', async () => {
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: '+1 415 555' } }))).toEqual([
        'Bob Alison',
        'Alice Smith',
      ]);
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: '2071838' } }))).toEqual(['Ali']);
    });

    it('search treats % and _ literally', async () => {
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: '100%' } }))).toEqual([
        'Carol 100% Real_Name',
      ]);
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: 'l_n' } }))).toEqual([
        'Carol 100% Real_Name',
      ]);
      // As a wildcard "a_e" would match "Dave" and "name"; taken literally it matches nothing.
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: 'a_e' } }))).toEqual([]);
    });

    it('groupId keeps members of the group only; an unknown group gives an empty list', async () => {
      expect(titles(await org.api.get('/api/v1/contacts', { query: { groupId: vip } }))).toEqual([
        'Bob Alison',
        'Alice Smith',
      ]);
      const none = await org.api.get('/api/v1/contacts', {
        query: { groupId: '01900000-0000-7000-8000-000000000000' },
      });
      expect([none.status, none.body.data]).toEqual([200, []]);
      const bad = await org.api.get('/api/v1/contacts', { query: { groupId: 'nope' } });
      expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([
        400,
        'VALIDATION_ERROR',
        expect.stringContaining('groupId'),
      ]);
    });

    it('tags is comma-separated and matches contacts having ANY of them', async () => {
      expect(titles(await org.api.get('/api/v1/contacts', { query: { tags: 'gold' } }))).toEqual([
        'Natalie Wood',
        'Bob Alison',
      ]);
      expect(titles(await org.api.get('/api/v1/contacts', { query: { tags: 'uk, sf' } }))).toEqual([
        'Ali',
        'Alice Smith',
      ]);
      expect(titles(await org.api.get('/api/v1/contacts', { query: { tags: 'nothing' } }))).toEqual([]);
    });

    it('filters combine with AND', async () => {
      const res = await org.api.get('/api/v1/contacts', { query: { search: 'ali', tags: 'gold,uk', groupId: vip } });
      expect(titles(res)).toEqual(['Bob Alison']);
    });

    it('paginates across pages with a cursor, without gaps or repeats', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await org.api.get('/api/v1/contacts', { query: { limit: 4, cursor, search: 'a' } });
        expect(res.status).toBe(200);
        expect(res.body.pagination.pageSize).toBe(4);
        seen.push(...titles(res));
        cursor = res.body.pagination.cursor ?? undefined;
        expect(res.body.pagination.hasMore).toBe(cursor !== undefined);
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toEqual(['Dave Brown', 'Carol 100% Real_Name', 'Natalie Wood', 'Bob Alison', 'Ali', 'Alice Smith']);
    });

    it('a cursor reused with another filter is 400 INVALID_CURSOR', async () => {
      const first = await org.api.get('/api/v1/contacts', { query: { limit: 1, tags: 'gold' } });
      const cursor = first.body.pagination.cursor;
      expect(cursor).toEqual(expect.any(String));
      const same = await org.api.get('/api/v1/contacts', { query: { limit: 1, tags: 'gold', cursor } });
      expect(titles(same)).toEqual(['Bob Alison']);
      for (const query of [{ tags: 'uk' }, { search: 'x', tags: 'gold' }, { groupId: vip, tags: 'gold' }, {}]) {
        const res = await org.api.get('/api/v1/contacts', { query: { ...query, cursor } });
        expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
      }
      const garbage = await org.api.get('/api/v1/contacts', { query: { cursor: 'garbage' } });
      expect([garbage.status, garbage.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
    });

    it('query limits: limit 1-100, tags at most 20 of 50 chars', async () => {
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'],
        [{ limit: 101 }, 'limit'],
        [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') }, 'tags'],
        [{ tags: 'x'.repeat(51) }, 'tags'],
        [{ search: 's'.repeat(201) }, 'search'],
      ] as const) {
        const res = await org.api.get('/api/v1/contacts', { query });
        expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
          400,
          'VALIDATION_ERROR',
          expect.stringContaining(field),
        ]);
      }
    });

    it("never shows another organization's contacts", async () => {
      const other = await createOrg(t);
      await create(other, { title: 'Alice Other', phone: '+14155550123' });
      expect(titles(await org.api.get('/api/v1/contacts', { query: { search: 'other' } }))).toEqual([]);
      expect(titles(await org.api.get('/api/v1/contacts/search', { query: { q: 'other' } }))).toEqual([]);
      expect(titles(await other.api.get('/api/v1/contacts'))).toEqual(['Alice Other']);
    });
  });

  describe('GET /contacts/search', () => {
    const search = (q: string, limit?: number) => org.api.get('/api/v1/contacts/search', { query: { q, limit } });

    it.each(['ali', 'Alice Sm', '4155', '+1 415 55', 'alice smith', 'smi', '+14155550123', 'alicee'])(
      '"%s" finds Alice Smith',
      async (q) => {
        const res = await search(q);
        expect(res.status).toBe(200);
        expect(res.body.data).toContainEqual({
          id: ids['Alice Smith'],
          title: 'Alice Smith',
          phone: '+14155550123',
          email: 'alice@example.com',
        });
      },
    );

    it('ranks exact, then prefix, then word prefix, then substring', async () => {
      expect(titles(await search('ali'))).toEqual(['Ali', 'Alice Smith', 'Bob Alison', 'Natalie Wood']);
    });

    it('ranks an exact phone above phone prefixes and substrings', async () => {
      const res = await search('+1 415 555 9876');
      expect(titles(res)[0]).toBe('Bob Alison');
      expect(titles(await search('1415555'))).toEqual(['Alice Smith', 'Bob Alison']);
    });

    it('two characters match prefixes of names, words and phone digits', async () => {
      expect(titles(await search('al'))).toEqual(['Ali', 'Alice Smith', 'Bob Alison']);
      expect(titles(await search('br'))).toEqual(['Dave Brown']);
      expect(titles(await search('61'))).toEqual(['Dave Brown']);
    });

    it('limit caps the results (default 10, 1-50)', async () => {
      expect(titles(await search('ali', 2))).toEqual(['Ali', 'Alice Smith']);
      for (const limit of [0, 51]) {
        const res = await search('ali', limit);
        expect([res.status, res.body.error.message]).toEqual([400, expect.stringContaining('limit')]);
      }
    });

    it('q is required and at least 2 characters', async () => {
      for (const query of [{}, { q: 'a' }, { q: '  a  ' }, { q: 'x'.repeat(101) }]) {
        const res = await org.api.get('/api/v1/contacts/search', { query });
        expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
          400,
          'VALIDATION_ERROR',
          expect.stringContaining('q'),
        ]);
      }
    });

    it('nothing matching is an empty list', async () => {
      expect((await search('zzzz')).body).toEqual({ data: [] });
    });

    it('the search expressions are the indexed ones (pg_trgm GIN), not a scan', async () => {
      // The service's own SQL fragments; with sequential scans disabled the planner can only answer through an
      // index whose expression matches textually, so a drifted expression shows up as a Seq Scan.
      const client = await t.db.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off');
        const plan = await client.query(
          `EXPLAIN SELECT id FROM contacts c WHERE ${NAME_SQL('c')} LIKE '%alic%' OR ${NAME_SQL('c')} %> 'alic'
             OR ${PHONE_DIGITS_SQL('c')} LIKE '%4155%' OR c.tags && '{vip}'::text[]`,
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toContain('ix_contacts_title_trgm');
        expect(text).toContain('ix_contacts_phone_digits_trgm');
        expect(text).toContain('ix_contacts_tags');
        expect(text).not.toContain('Seq Scan');
        const prefix = await client.query(
          `EXPLAIN SELECT id FROM contacts c WHERE c.organization_id = $1 AND ${NAME_SQL('c')} COLLATE "C" LIKE 'ali%'
             ORDER BY ${NAME_SQL('c')} COLLATE "C" LIMIT 10`,
          [org.id],
        );
        expect(prefix.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('ix_contacts_org_title_prefix');
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
  });
});
