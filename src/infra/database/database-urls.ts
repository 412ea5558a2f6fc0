/**
 * Where each kind of database work goes (docs/operations.md, "PgBouncer" and "Read replicas"):
 * - `main` (DATABASE_URL, possibly a transaction-pooling PgBouncer): every request and job.
 * - `direct` (DATABASE_DIRECT_URL, else `main`): what needs a server session of its own — migrations, the outbox
 *   relay's LISTEN, BullMQ's PostgreSQL queue backend (a LISTEN client and a per-connection search_path).
 * - `read` (DATABASE_READ_URL): a streaming replica for the API's GET routes; unset, they read the primary.
 */
export interface DatabaseUrls {
  main: string;
  direct: string;
  read?: string;
}
