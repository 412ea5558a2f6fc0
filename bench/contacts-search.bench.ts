/*
 * GET /contacts/search latency with 100,000 contacts in one organization.
 *
 * Boots the real app (test harness: its own database cloned from the migrated template, real Redis), loads the
 * contacts with one INSERT ... SELECT generate_series (bench-only fixture written straight to the database: the
 * API would take minutes), then times sequential HTTP requests over a mix of name and phone queries.
 * Target: p95 <= 20 ms. Run: `npm run bench contacts-search`.
 */
import { performance } from 'node:perf_hooks';
import { createOrg } from '../test/support/factory';
import globalSetup from '../test/support/global-setup';
import { startTestApp } from '../test/support/test-app';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const QUERIES = [
  'ali',
  'Alice Sm',
  'alice smith',
  'smi',
  'garcia',
  'jo',
  'mar',
  'alicee',
  '4155',
  '+1 415 55',
  '+14155550123',
  'zzqx',
];

const FIRST = [
  'Alice',
  'Bob',
  'Carol',
  'David',
  'Emma',
  'Frank',
  'Grace',
  'Henry',
  'Isabel',
  'Jack',
  'Karen',
  'Liam',
  'Maria',
  'Noah',
  'Olivia',
  'Peter',
  'Quinn',
  'Rosa',
  'Sam',
  'Tina',
  'Umar',
  'Vera',
  'Will',
  'Xena',
  'Yusuf',
  'Zoe',
  'Natalie',
  'Jose',
  'Mohammed',
  'Aiko',
  'Chen',
  'Priya',
  'Lucas',
  'Sofia',
  'Mateo',
  'Amara',
  'Ivan',
  'Leila',
  'Omar',
  'Hana',
];
const LAST = [
  'Smith',
  'Johnson',
  'Garcia',
  'Brown',
  'Jones',
  'Miller',
  'Davis',
  'Martinez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Okafor',
  'Kowalski',
  'Tanaka',
  'Haddad',
  'Novak',
  'Rossi',
  'Alison',
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function main(): Promise<void> {
  await globalSetup();
  const t = await startTestApp();
  try {
    const org = await createOrg(t, { scopes: ['contacts:read'] });
    const started = performance.now();
    // Phones: +1 and ten digits from a bijection of i (7919 is coprime to 9e9), so unique and spread out.
    await t.db.query(
      `INSERT INTO contacts (id, organization_id, title, phone, tags, created_at, updated_at)
       SELECT gen_random_uuid(), $1,
              ($2::text[])[1 + (i * 7) % cardinality($2::text[])] || ' ' || ($3::text[])[1 + (i * 13) % cardinality($3::text[])],
              '+1' || ((i::bigint * 7919 + 12345) % 9000000000 + 1000000000)::text,
              ARRAY['t' || (i % 50)],
              now() - i * interval '1 second', now()
         FROM generate_series(1, $4::int) AS i`,
      [org.id, FIRST, LAST, CONTACTS - 1],
    );
    await t.db.query(
      `INSERT INTO contacts (id, organization_id, title, phone) VALUES (gen_random_uuid(), $1, 'Alice Smith', '+14155550123')
       ON CONFLICT DO NOTHING`,
      [org.id],
    );
    // VACUUM also flushes the GIN pending lists a bulk load leaves behind (autovacuum would, a little later).
    await t.db.query('VACUUM ANALYZE contacts');
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM contacts WHERE organization_id = $1', [org.id]);
    console.log(`loaded ${rows[0].n} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    for (const q of QUERIES) await org.api.get('/api/v1/contacts/search', { query: { q } }); // warm-up
    const all: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of QUERIES) {
        const t0 = performance.now();
        const res = await org.api.get('/api/v1/contacts/search', { query: { q } });
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${res.text}`);
        if (round === 0 && q === 'ali' && !res.body.data.length) throw new Error('search found nothing for "ali"');
        all.push(ms);
        perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
      }
    }
    all.sort((a, b) => a - b);
    console.log(`GET /contacts/search, ${all.length} sequential requests over HTTP, ${CONTACTS} contacts in the org`);
    console.log(
      `  p50 ${fmt(percentile(all, 50))}  p95 ${fmt(percentile(all, 95))}  p99 ${fmt(percentile(all, 99))}  max ${fmt(all[all.length - 1])}`,
    );
    for (const [q, times] of perQuery) {
      times.sort((a, b) => a - b);
      console.log(
        `  ${JSON.stringify(q).padEnd(16)} p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}`,
      );
    }
    const p95 = percentile(all, 95);
    console.log(`target p95 <= 20 ms: ${p95 <= 20 ? 'met' : 'NOT met'}`);
  } finally {
    await t.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
