/*
 * Bench-only fixtures written straight into the database with INSERT ... SELECT generate_series: the API would
 * take minutes for 100,000 rows. Names and numbers are spread so that search queries match realistic shares.
 */
import { Pool } from 'pg';

const FIRST = ['Alice', 'Bob', 'Carol', 'David', 'Emma', 'Maria', 'Jose', 'Priya', 'Omar', 'Hana', 'Marco', 'Joan'];
const LAST = ['Smith', 'Garcia', 'Johnson', 'Martinez', 'Lee', 'Nguyen', 'Okafor', 'Tanaka', 'Rossi', 'Alison'];

/** `count` ended outbound calls in `orgId`, one a second back from now. */
export async function seedCalls(db: Pool, orgId: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, api_call_id, api_call_status,
                        ended_reason, result_status, duration_seconds, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'ended', 'outbound', '+14155550100',
            '+1' || ((i::bigint * 7919 + 12345) % 9000000000 + 1000000000)::text, 'sim-' || i, 'ended',
            'customer-ended-call', 'Answered', 30 + i % 300,
            now() - i * interval '1 second', now() - i * interval '1 second'
       FROM generate_series(1, $2::int) AS i`,
    [orgId, count],
  );
  await db.query('VACUUM ANALYZE calls');
}

/** `count` contacts in each organization of `orgIds` (ids need not exist: contacts carry no foreign key to them). */
export async function seedContacts(db: Pool, orgIds: string[], count: number): Promise<void> {
  for (const orgId of orgIds) {
    await db.query(
      `INSERT INTO contacts (id, organization_id, title, phone, tags, created_at, updated_at)
       SELECT gen_random_uuid(), $1,
              ($2::text[])[1 + (i * 7) % cardinality($2::text[])] || ' ' || ($3::text[])[1 + (i * 13) % cardinality($3::text[])],
              '+1' || ((i::bigint * 7919 + 12345) % 9000000000 + 1000000000)::text, ARRAY['t' || (i % 50)],
              now() - i * interval '1 second', now()
         FROM generate_series(1, $4::int) AS i`,
      [orgId, FIRST, LAST, count],
    );
  }
  await db.query('VACUUM ANALYZE contacts');
}
