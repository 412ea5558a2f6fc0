/**
 * `status IN ('a', 'b')` for SQL, from a transition table's statuses, each checked against the column's known
 * values. Literals, not a bound array: a partial index only matches a predicate PostgreSQL can read at plan time.
 */
export function statusIn<S extends string>(known: readonly S[], statuses: readonly S[], column = 'status'): string {
  for (const s of statuses) if (!known.includes(s)) throw new Error(`Unknown status ${s}`);
  return `${column} IN (${statuses.map((s) => `'${s}'`).join(', ')})`;
}
