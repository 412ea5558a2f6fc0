/*
 * The benchmark baseline: the least a server can do to answer the same routes with the same SQL and the
 * same key check — node:http, one pg Pool (same size as the app's), no framework, no validation library, no
 * DI, no envelope filters. `compare.bench.ts` runs it beside the real app and reports ours/baseline.
 *
 *   GET  /api/v1/calls?limit=25      first page, newest first (organization_id, created_at DESC, id DESC)
 *   POST /api/v1/contacts            insert ... ON CONFLICT DO NOTHING + outbox row, in one transaction; after the
 *                                    commit, the relay's wake-up (below)
 *   POST /api/v1/calls               what the app reads and writes for a live outbound call, each statement once:
 *                                    the caller ID's number, then in one transaction the default assistant, the
 *                                    holdings (trial, grants, balance: the plan-and-minute check), the destination
 *                                    rules, the do-not-call ledger, the call's insert RETURNING *, the outbox row,
 *                                    COMMIT; then the relay's wake-up and the dispatch job (BullMQ on Redis, delayed
 *                                    to the call's scheduledAt, so nothing dials during the run)
 *   GET  /api/v1/contacts/search?q=  the app's own ContactSearchRepository statement, run over the raw pool
 *
 * Run: DATABASE_URL=... REDIS_URL=... QUEUE_PREFIX=... PORT=0 node -r ts-node/register/transpile-only
 * bench/baseline-server.ts (prints its port and sends it to a parent process over IPC).
 */
import 'reflect-metadata';
import { createHash, randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ContactSearchRepository } from '../src/modules/contacts/contact-search.repository';
import { ContactSearchService } from '../src/modules/contacts/contact-search.service';
import { uuidv7 } from '../src/common/ids/uuid-v7';
import { OUTBOX_CHANNEL } from '../src/modules/outbox/outbox-events.repository';
import { OUTBOX_WAKE_INTERVAL_MS } from '../src/modules/outbox/outbox-wakeup';
import { ThrottledSignal } from '../src/common/concurrency/throttled-signal';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
// The app's call-dispatch queue, under a prefix of the baseline's own (its jobs never meet a worker).
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const dispatch = new Queue('call-dispatch', {
  connection: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) },
  prefix: process.env.QUEUE_PREFIX ?? 'baseline',
});
const wakeRelay = new ThrottledSignal(
  OUTBOX_WAKE_INTERVAL_MS,
  () => pool.query(`NOTIFY ${OUTBOX_CHANNEL}`),
  () => undefined,
);
// The search runs its statement on the driver's pg Pool: give it this raw pool instead of TypeORM.
const search = new ContactSearchService(
  new ContactSearchRepository({ driver: { master: pool } } as unknown as DataSource),
);

type Key = { organizationId: string; scopes: string[]; livemode: boolean };

/** The same check as the app: sha256 of the key looked up in api_keys, revoked/expired refused, scope required. */
async function authenticate(req: IncomingMessage, scope: string): Promise<Key | number> {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string') return 401;
  const hash = createHash('sha256').update(key, 'utf8').digest();
  const { rows } = await pool.query(
    'SELECT id, organization_id, key_hash, scopes, expires_at, revoked_at, environment FROM api_keys WHERE key_hash = $1 LIMIT 1',
    [hash],
  );
  const row = rows[0];
  if (!row || row.revoked_at || (row.expires_at && row.expires_at.getTime() <= Date.now())) return 401;
  const scopes: string[] = row.scopes;
  if (!scopes.includes('*') && !scopes.includes(scope)) return 403;
  return { organizationId: row.organization_id, scopes, livemode: row.environment === 'live' };
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
    await client.query('COMMIT');
    wakeRelay.request();
    return [201, { data: contact }];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const E164 = /^\+[1-9]\d{6,14}$/;

async function createCall(key: Key, body: any): Promise<[number, unknown]> {
  if (!E164.test(body?.to ?? '') || !E164.test(body?.from ?? '')) return [400, { error: { code: 'VALIDATION_ERROR' } }];
  const scheduledAt = body.scheduledAt ? new Date(body.scheduledAt) : null;
  if (scheduledAt && !(scheduledAt.getTime() > Date.now())) return [400, { error: { code: 'VALIDATION_ERROR' } }];
  const org = key.organizationId;
  const number = await pool.query(
    'SELECT id, provider_id, platform, telephony FROM phone_numbers WHERE organization_id = $1 AND number = $2 LIMIT 1',
    [org, body.from],
  );
  if (!number.rows.length) return [400, { error: { code: 'INVALID_PHONE' } }];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const assistant = await client.query(
      'SELECT * FROM outbound_assistants WHERE organization_id = $1 AND is_default = true LIMIT 1',
      [org],
    );
    const holdings = await client.query(
      `SELECT (SELECT coalesce(json_agg(s ORDER BY s.created_at DESC, s.id DESC), '[]')
                 FROM subscriptions s WHERE s.organization_id = $1) AS subscriptions,
              (SELECT row_to_json(t) FROM trials t WHERE t.organization_id = $1) AS trial,
              (SELECT coalesce(json_agg(g), '[]')
                 FROM minute_grants g
                WHERE g.organization_id = $1 AND (g.closed = false OR g.reserved_mins > 0)) AS grants,
              (SELECT row_to_json(b) FROM usage_balances b WHERE b.organization_id = $1) AS balance`,
      [org],
    );
    const { subscriptions, trial, grants } = holdings.rows[0];
    if (key.livemode && !subscriptions.length && !trial) {
      await client.query('ROLLBACK');
      return [402, { error: { code: 'OUTBOUND_PLAN_REQUIRED' } }];
    }
    if (key.livemode && !grants.length) {
      await client.query('ROLLBACK');
      return [402, { error: { code: 'OUTBOUND_MINUTES_EXHAUSTED' } }];
    }
    const rules = await client.query(
      'SELECT allowed_countries, blocked_prefixes, allowed_classes FROM destination_rules WHERE organization_id = $1',
      [org],
    );
    const blocked: string[] = rules.rows[0]?.blocked_prefixes ?? [];
    if (blocked.some((p) => body.to.startsWith(p))) {
      await client.query('ROLLBACK');
      return [422, { error: { code: 'DESTINATION_NOT_ALLOWED' } }];
    }
    const listed = await client.query(
      `SELECT number FROM do_not_call_entries
        WHERE number = ANY($1) AND organization_id = $2 AND livemode = $3 AND removed_at IS NULL`,
      [[body.to], org, key.livemode],
    );
    if (listed.rows.length) {
      await client.query('ROLLBACK');
      return [409, { error: { code: 'DO_NOT_CALL' } }];
    }
    const { rows } = await client.query(
      `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, first_message, system_prompt,
                          scheduled_at, livemode, platform, provider_number_id, voice_settings)
       VALUES ($1, $2, $3, 'outbound', $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
      [
        uuidv7(),
        org,
        scheduledAt ? 'scheduled' : 'new',
        body.from,
        body.to,
        body.firstMessage ?? null,
        assistant.rows[0]?.system_prompt ?? null,
        scheduledAt,
        key.livemode,
        key.livemode ? (number.rows[0].platform ?? 'simulator') : 'simulator',
        number.rows[0].provider_id,
        assistant.rows[0]?.voice ?? {},
      ],
    );
    const call = rows[0];
    if (scheduledAt) {
      await client.query(
        `INSERT INTO outbox_events (event_id, organization_id, livemode, type, data, occurred_at)
         VALUES ($1, $2, $3, 'call.scheduled', $4, now())`,
        [uuidv7(), org, key.livemode, { callId: call.id }],
      );
    }
    await client.query('COMMIT');
    if (scheduledAt) wakeRelay.request();
    await dispatch.add(
      'dispatch-call',
      { callId: call.id },
      { jobId: call.id, delay: scheduledAt ? Math.max(0, scheduledAt.getTime() - Date.now()) : 0 },
    );
    return [201, { data: callJson(call) }];
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
  if (req.method === 'POST' && url.pathname === '/api/v1/calls') {
    const key = await authenticate(req, 'calls:write');
    if (typeof key === 'number') return [key, { error: { code: 'UNAUTHORIZED' } }];
    return createCall(key, JSON.parse(body || '{}'));
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
