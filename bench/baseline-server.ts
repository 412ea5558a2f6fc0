/*
 * The benchmark baseline: the least a server can do to answer the same three routes with the same SQL and the
 * same key check — node:http, one pg Pool (same size as the app's), no framework, no validation library, no
 * DI, no envelope filters. `compare.bench.ts` runs it beside the real app and reports ours/baseline.
 *
 *   GET  /api/v1/calls?limit=25      first page, newest first (organization_id, created_at DESC, id DESC)
 *   POST /api/v1/contacts            insert ... ON CONFLICT DO NOTHING + outbox row + pg_notify, in one transaction
 *   GET  /api/v1/contacts/search?q=  the app's own ContactSearchRepository statement, run over the raw pool
 *
 * Run: DATABASE_URL=... PORT=0 node -r ts-node/register/transpile-only bench/baseline-server.ts (prints its port
 * and sends it to a parent process over IPC).
 */
import 'reflect-metadata';
import { createHash, randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ContactSearchRepository } from '../src/modules/contacts/contact-search.repository';
import { ContactSearchService } from '../src/modules/contacts/contact-search.service';
import { uuidv7 } from '../src/common/ids/uuid-v7';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
// The search runs its statement on the driver's pg Pool: give it this raw pool instead of TypeORM.
const search = new ContactSearchService(
  new ContactSearchRepository({ driver: { master: pool } } as unknown as DataSource),
);

type Key = { organizationId: string; scopes: string[] };

/** The same check as the app: sha256 of the key looked up in api_keys, revoked/expired refused, scope required. */
async function authenticate(req: IncomingMessage, scope: string): Promise<Key | number> {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string') return 401;
  const hash = createHash('sha256').update(key, 'utf8').digest();
  const { rows } = await pool.query(
    'SELECT id, organization_id, key_hash, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1 LIMIT 1',
    [hash],
  );
  const row = rows[0];
  if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= Date.now())) return 401;
  const scopes: string[] = row.scopes;
  if (!scopes.includes('*') && !scopes.includes(scope)) return 403;
  return { organizationId: row.organization_id, scopes };
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
function callJson(row: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'organization_id' || k === 'transcript' || k === 'system_prompt' || k === 'tool_ids') continue;
    out[camel(k)] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

async function listCalls(key: Key, url: URL): Promise<[number, unknown]> {
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 25)));
  const { rows } = await pool.query(
    'SELECT c.* FROM calls c WHERE c.organization_id = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT $2',
    [key.organizationId, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit ? Buffer.from(`${last.created_at.toISOString()}|${last.id}`).toString('base64url') : null;
  return [200, { data: page.map(callJson), pagination: { nextCursor, hasMore: nextCursor !== null } }];
}

async function createContact(key: Key, body: any): Promise<[number, unknown]> {
  if (typeof body?.title !== 'string' || typeof body?.phone !== 'string')
    return [400, { error: { code: 'VALIDATION_ERROR' } }];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const id = uuidv7();
    const inserted = await client.query(
      `INSERT INTO contacts (id, organization_id, title, phone, email, notes, tags, custom_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING created_at, updated_at`,
      [
        id,
        key.organizationId,
        body.title,
        body.phone,
        body.email ?? null,
        body.notes ?? null,
        body.tags ?? [],
        body.customFields ?? {},
      ],
    );
    if (!inserted.rows.length) {
      await client.query('ROLLBACK');
      return [409, { error: { code: 'CONFLICT', message: 'phone taken' } }];
    }
    const contact = {
      id,
      title: body.title,
      phone: body.phone,
      email: body.email ?? null,
      notes: body.notes ?? null,
      tags: body.tags ?? [],
      customFields: body.customFields ?? {},
      createdAt: inserted.rows[0].created_at.toISOString(),
    };
    await client.query(
      'INSERT INTO outbox_events (event_id, organization_id, type, data, occurred_at) VALUES ($1, $2, $3, $4, $5)',
      [randomUUID(), key.organizationId, 'contact.created', contact, new Date()],
    );
    await client.query(`SELECT pg_notify('vc_outbox', '')`);
    await client.query('COMMIT');
    return [201, { data: contact }];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function route(req: IncomingMessage, body: string): Promise<[number, unknown]> {
  const url = new URL(req.url ?? '/', 'http://local');
  if (req.method === 'GET' && url.pathname === '/api/v1/calls') {
    const key = await authenticate(req, 'calls:read');
    return typeof key === 'number' ? [key, { error: { code: 'UNAUTHORIZED' } }] : listCalls(key, url);
  }
  if (req.method === 'POST' && url.pathname === '/api/v1/contacts') {
    const key = await authenticate(req, 'contacts:write');
    if (typeof key === 'number') return [key, { error: { code: 'UNAUTHORIZED' } }];
    return createContact(key, JSON.parse(body || '{}'));
  }
  if (req.method === 'GET' && url.pathname === '/api/v1/contacts/search') {
    const key = await authenticate(req, 'contacts:read');
    if (typeof key === 'number') return [key, { error: { code: 'UNAUTHORIZED' } }];
    const q = url.searchParams.get('q') ?? '';
    if (q.trim().length < 2) return [400, { error: { code: 'VALIDATION_ERROR' } }];
    const limit = Math.min(50, Math.max(1, Number(url.searchParams.get('limit') ?? 10)));
    return [200, { data: await search.search({ organizationId: key.organizationId, livemode: true }, q, limit) }];
  }
  return [404, { error: { code: 'NOT_FOUND' } }];
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    route(req, Buffer.concat(chunks).toString('utf8')).then(
      ([status, payload]) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"error":{"code":"INTERNAL_ERROR"}}');
      },
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`baseline listening on ${port}`);
  process.send?.({ port });
});
