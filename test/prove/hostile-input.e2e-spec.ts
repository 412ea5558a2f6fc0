import fc from 'fast-check';
import IORedis from 'ioredis';
import { callingOrg } from '../calls/call-fixtures';
import { TEST_REDIS_URL } from '../support/databases';
import { TestOrg } from '../support/factory';
import { HttpResponse } from '../support/http';
import { ContractOperation, openApiContract } from '../support/openapi-contract';
import { queueBytes } from '../support/queue-bytes';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Schema-driven fuzzing: for every documented operation taking a JSON body or query parameters (so new routes
 * join automatically), fast-check builds hostile requests from the document's own field names. Whatever the
 * input, the answer is a documented 2xx/4xx (the HttpClient checks it against the document), never a 5xx, and a
 * refused request writes no row anywhere. Resources are watched too: no answer is much larger than its request
 * (no amplification), and after the whole run the process's memory and the app's bytes in Redis stay within
 * budgets that a stored or queued copy of a rendered document per request would break.
 */
const contract = openApiContract();
const RUNS = 25;
/** An answer may echo its request; beyond twice the request (or 64 KB) something was amplified. */
const responseBudget = (body: string | undefined) => Math.max(64 * 1024, 2 * Buffer.byteLength(body ?? ''));
/**
 * Budgets for the whole run (~1,500 requests, bodies up to 1 MiB). Measured 2026-11-23: RSS grew 4 MiB, the
 * app's queues held 71,624 B of Redis, the largest answer was 1,990 B. A copy of a 1 MiB body kept per request
 * in memory or in a job would break them; GC noise would not.
 */
const RSS_GROWTH_BUDGET = 128 * 1024 * 1024;
const REDIS_BUDGET = 1024 * 1024;

const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Values that are wrong, extreme or dangerous for any field. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\u202e\u0041',
    '😀'.repeat(1000),
    "'; DROP TABLE contacts; --",
    '{{name}}',
    '../../etc/passwd',
  ),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((k) => ({ [k]: { polluted: true } })),
);

/** The raw JSON text (so `__proto__` keys really go over the wire as own keys). */
function bodyText(fields: string[]): fc.Arbitrary<string> {
  const objectBody = fc
    .tuple(
      fc.subarray(fields),
      fc.array(hostileValue, { minLength: fields.length, maxLength: fields.length }),
      fc.subarray(['__proto__', 'constructor', 'id', 'organizationId', 'extra'], { maxLength: 2 }),
    )
    .map(([chosen, values, extras]) => {
      const parts = chosen.map((f, i) => `${JSON.stringify(f)}:${JSON.stringify(values[i]) ?? 'null'}`);
      for (const extra of extras)
        parts.push(
          `${JSON.stringify(extra)}:${extra === '__proto__' || extra === 'constructor' ? '{"prototype":{"polluted":true},"polluted":true}' : '"0190f0c0-0000-7000-8000-000000000000"'}`,
        );
      return `{${parts.join(',')}}`;
    });
  return fc.oneof(
    { weight: 6, arbitrary: objectBody },
    {
      weight: 1,
      arbitrary: fc.constantFrom(deepJson(1200), deepObject(1200), 'null', '[]', '"string"', '42', '{', '{"a":1,}', ''),
    },
    {
      weight: 1,
      arbitrary: fields.length
        ? fc.constantFrom(...fields).map((f) => `{${JSON.stringify(f)}:${deepObject(1500)}}`)
        : fc.constant('{}'),
    },
  );
}

function queryOf(names: string[]): fc.Arbitrary<Record<string, string>> {
  return fc
    .tuple(
      fc.subarray(names),
      fc.array(
        fc.oneof(
          hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null'))),
          fc.constantFrom('-1', '0', '101', '1e9', 'NaN', 'true', '2026-13-45', 'not-a-uuid', '%00', 'a,b,c'),
        ),
        { minLength: names.length, maxLength: names.length },
      ),
    )
    .map(([chosen, values]) => fitUrl(Object.fromEntries(chosen.map((n, i) => [n, values[i]]))));
}

/**
 * The encoded query is kept under 12 KB: beyond Node's 16 KB header limit the HTTP parser itself answers 431,
 * before the application sees the request. Measured encoded, since one emoji is 12 bytes in a URL.
 */
function fitUrl(query: Record<string, string>): Record<string, string> {
  const encodedLength = () =>
    Object.values(query).reduce((sum, v) => sum + new URLSearchParams({ v }).toString().length, 0);
  while (encodedLength() > 12_000) {
    const longest = Object.keys(query).reduce((a, b) => (query[a].length >= query[b].length ? a : b));
    query[longest] = [...query[longest]].slice(0, Math.floor([...query[longest]].length / 2)).join('');
  }
  return query;
}

function resolve(schema: any): any {
  const ref: string | undefined = schema?.$ref;
  return ref ? contract.document.components.schemas[ref.split('/').pop()!] : schema;
}

const fuzzable = contract.operations.filter(
  (op) => op.operation.requestBody || (op.operation.parameters ?? []).some((p: any) => p.in === 'query'),
);

describe('prove: hostile input', () => {
  let t: TestApp;
  let org: TestOrg & { from: string };
  let countSql: string;
  let redis: IORedis;
  let rssBefore: number;
  let largestResponse = 0;
  beforeAll(async () => {
    t = await startTestApp();
    redis = new IORedis(TEST_REDIS_URL);
    org = await callingOrg(t);
    rssBefore = process.memoryUsage().rss;
    const { rows } = await t.db.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'`,
    );
    countSql = `SELECT ${rows.map((r) => `(SELECT count(*) FROM "${r.table_name}")`).join(' + ')} AS n`;
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
  });

  const rowCount = async () => Number((await t.db.query(countSql)).rows[0].n);

  it('regression: a lone UTF-16 surrogate in a body is a 4xx, not a 500', async () => {
    for (const [method, path] of [
      ['PATCH', '/api/v1/contacts/0190f0c0-0000-7000-8000-000000000000'],
      ['POST', '/api/v1/contacts'],
    ]) {
      const res = await org.api.request(method, path, {
        body: '{"title":"\\ud800","phone":"+14155550100","email":"\\ud800"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('has operations to fuzz', () => {
    expect(fuzzable.length).toBeGreaterThan(10);
  });

  it.each(fuzzable.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: never a 5xx, a documented 4xx envelope, no row written on rejection',
    async (_name, op: ContractOperation) => {
      const fields = Object.keys(
        resolve(op.operation.requestBody?.content?.['application/json']?.schema)?.properties ?? {},
      );
      const queryNames = (op.operation.parameters ?? [])
        .filter((p: any) => p.in === 'query')
        .map((p: any) => p.name as string);
      const path = op.path.replace('{id}', '0190f0c0-0000-7000-8000-000000000000');
      await fc.assert(
        fc.asyncProperty(
          op.operation.requestBody ? bodyText(fields) : fc.constant(undefined),
          queryOf(queryNames),
          async (body, query) => {
            const before = await rowCount();
            const res: HttpResponse = await org.api.request(op.method, path, {
              body,
              query,
              headers: body === undefined ? {} : { 'content-type': 'application/json' },
            });
            expect(res.status).toBeLessThan(500);
            const responseBytes = Buffer.byteLength(res.text);
            largestResponse = Math.max(largestResponse, responseBytes);
            expect(responseBytes).toBeLessThanOrEqual(responseBudget(body));
            if (res.status >= 400) {
              expect(res.body.error).toEqual(
                expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
              );
              expect(await rowCount()).toBe(before);
            }
            // Prototype pollution would show up on every object in this process's app.
            expect(({} as any).polluted).toBeUndefined();
          },
        ),
        { numRuns: RUNS },
      );
    },
    60_000,
  );

  // Runs after every fuzzed operation above (Jest keeps the order of a file's tests).
  it('after the whole run: memory and the queue store stayed within budget', async () => {
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    const redisBytes = await queueBytes(redis, t.queuePrefix);
    console.log(
      `hostile input: largest response ${largestResponse} B, RSS growth ${Math.round(rssGrowth / 1048576)} MiB, ` +
        `Redis ${redisBytes} B for this app's queues`,
    );
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_BUDGET);
    expect(redisBytes).toBeLessThan(REDIS_BUDGET);
  });
});
