import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * GET /contacts/search ranks by the documented rules whatever the shape of the organization's contacts: few
 * distinct names carried by many contacts each, and many distinct names. The expected order is computed here from the documented rules over every contact of the
 * organization, with PostgreSQL's own pg_trgm answer for the typo tier.
 */
describe('contacts search: ranking on both paths', () => {
  let t: TestApp;
  const FIRST = ['Alice', 'Bob', 'Carol', 'David', 'Emma', 'Maria', 'Jose', 'Priya', 'Omar', 'Hana', 'Marco', 'Joan'];
  const LAST = ['Smith', 'Garcia', 'Johnson', 'Martinez', 'Lee', 'Nguyen', 'Okafor', 'Tanaka', 'Rossi', 'Alison'];
  const QUERIES = ['ali', 'smith', 'smi', 'mar', 'son', 'jo', 'al', 'alicee', 'okafr', '4155', '1415555', '+1 415 55'];
  const QUERIES_MORE = ['garcia', 'zzzz', 'hana ro', 'ssi', '555', 'alice smith'];

  type Contact = { id: string; title: string; phone: string; email: string | null };
  type Judged = Contact & { name: string; digits: string; fuzzy: boolean; sim: number };

  const create = async (org: TestOrg, title: string, phone: string) => {
    const res = await org.api.post('/api/v1/contacts', { title, phone });
    if (res.status !== 201) throw new Error(`create failed ${res.status} ${res.text}`);
  };

  /** The documented ranking, computed over all of the organization's contacts; notes which tiers found rows. */
  const expected = async (org: TestOrg, q: string, limit: number, tiersSeen: Set<number>): Promise<string[]> => {
    const text = q.trim().toLowerCase();
    const digits = /^[\d\s+\-().]+$/.test(text) && text.replace(/\D/g, '').length >= 2 ? text.replace(/\D/g, '') : null;
    const { rows } = await t.db.query<Judged>(
      `SELECT id, title, phone, email, lower(title) AS name, regexp_replace(phone, '\\D', '', 'g') AS digits,
              lower(title) %> $2 AS fuzzy, word_similarity($2, lower(title)) AS sim
         FROM contacts WHERE organization_id = $1`,
      [org.id, text],
    );
    const byName = (a: Judged, b: Judged) => cmp(a.name, b.name) || cmp(a.id, b.id);
    const namePrefix = rows
      .filter((r) => r.name.startsWith(text))
      .sort(byName)
      .slice(0, limit);
    const phonePrefix = digits
      ? rows
          .filter((r) => r.digits.startsWith(digits) && !r.name.startsWith(text))
          .sort((a, b) => cmp(a.digits, b.digits) || cmp(a.id, b.id))
          .slice(0, limit)
      : [];
    const exact = (r: Judged) => (r.name === text || (digits !== null && r.digits === digits) ? 0 : 1);
    const tier1 = [...namePrefix, ...phonePrefix]
      .sort((a, b) => exact(a) - exact(b) || cmp(a.name, b.name) || cmp(a.title, b.title) || cmp(a.id, b.id))
      .slice(0, limit);
    const seen = new Set(tier1.map((r) => r.id));
    const next = (test: (r: Judged) => boolean, order: (a: Judged, b: Judged) => number) => {
      const tier = rows.filter((r) => !seen.has(r.id) && test(r)).sort(order);
      for (const r of tier) seen.add(r.id);
      return tier;
    };
    const tier2 = next((r) => r.name.includes(` ${text}`), byName);
    const tier3 = next(
      (r) =>
        (text.length >= 3 && r.name.includes(text)) ||
        (digits !== null && digits.length >= 3 && r.digits.includes(digits)),
      byName,
    );
    const tier4 = next(
      (r) => r.fuzzy,
      (a, b) => b.sim - a.sim || byName(a, b),
    );
    [tier1, tier2, tier3, tier4].forEach((tier, i) => tier.length && tiersSeen.add(i + 1));
    return [...tier1, ...tier2, ...tier3, ...tier4].slice(0, limit).map((r) => r.id);
  };

  const ranked = async (org: TestOrg, q: string, limit: number): Promise<string[]> => {
    const res = await org.api.get('/api/v1/contacts/search', { query: { q, limit } });
    expect(res.status).toBe(200);
    return res.body.data.map((c: Contact) => c.id);
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it.each([
    ['few distinct names, many contacts each', 8, 6],
    ['many distinct names, one contact each', 120, 1],
  ])('%s', async (_what, names, copies) => {
    const org = await createOrg(t);
    let n = 0;
    for (let i = 0; i < names; i++) {
      const title = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i >= 120 ? ` ${i}` : ''}`;
      for (let c = 0; c < copies; c++, n++) {
        await create(org, title, `+1${n % 3 ? '212' : '415'}555${String(1000 + n * 37).padStart(4, '0')}`);
      }
    }
    // The organization's distinct names are kept beside its contacts as they are created.
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM contact_names WHERE organization_id = $1', [
      org.id,
    ]);
    expect(rows[0].n).toBe(names);
    const tiersSeen = new Set<number>();
    for (const q of [...QUERIES, ...QUERIES_MORE]) {
      for (const limit of [1, 3, 10, 50]) {
        const want = await expected(org, q, limit, tiersSeen);
        expect({ q, limit, ids: await ranked(org, q, limit) }).toEqual({ q, limit, ids: want });
      }
    }
    // The queries reach every tier, so every arm of the statement was compared.
    expect([...tiersSeen].sort()).toEqual([1, 2, 3, 4]);
  });
});

/** Byte order, as the database's "C" comparisons (the names here are ASCII). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
