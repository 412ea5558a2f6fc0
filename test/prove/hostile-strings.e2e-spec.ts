import { createOrg } from '../support/factory';
import { ContractOperation, adminApiContract, openApiContract } from '../support/openapi-contract';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';

/**
 * One pass over every documented operation of both documents (the public API and the admin API), each hostile
 * string in every body field, every query parameter and every path parameter at once: NUL, a lone surrogate, 10,000
 * characters of unicode, Liquid, SQL and path fragments. Whatever the route, the answer is never a 5xx, and a
 * refusal is the error envelope. Bounded: one request per operation, string and place (no random search; the
 * schema-driven random search of the public API is hostile-input.e2e-spec.ts).
 */
const HOSTILE: Array<{ kind: string; text: string; url: string }> = [
  { kind: 'NUL', text: 'a\u0000b', url: 'a%00b' },
  // A lone surrogate has no UTF-8 form: in a URL its would-be bytes, which no decoder accepts.
  { kind: 'lone surrogate', text: 'a\ud800b', url: 'a%ED%A0%80b' },
  { kind: '10k unicode', text: 'é😀'.repeat(3_334), url: encodeURIComponent('é😀'.repeat(300)) },
  {
    kind: 'Liquid',
    text: '{% for i in (1..100000) %}{{ x }}{% endfor %}',
    url: encodeURIComponent('{% for i in (1..100000) %}{{ x }}'),
  },
  { kind: 'SQL', text: "'; DROP TABLE contacts; --", url: encodeURIComponent("'; DROP TABLE contacts; --") },
  { kind: 'path', text: '../../etc/passwd', url: '..%2F..%2Fetc%2Fpasswd' },
];
const SOME_ID = '0190f0c0-0000-7000-8000-000000000000';

type Json = Record<string, any>;
const documents = [
  { name: 'public', contract: openApiContract() },
  { name: 'admin', contract: adminApiContract() },
];

/** The names of an operation's JSON body fields (its schema's properties, through one $ref). */
function bodyFields(document: Json, op: ContractOperation): string[] {
  let schema = op.operation.requestBody?.content?.['application/json']?.schema;
  if (schema?.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()];
  return Object.keys(schema?.properties ?? {});
}

const cases = documents.flatMap(({ name, contract }) =>
  contract.operations
    .filter((op) => !op.path.startsWith('/health'))
    .flatMap((op) =>
      HOSTILE.map((h) => [`${name} ${op.method} ${op.path}: ${h.kind}`, name, contract.document, op, h] as const),
    ),
);

describe('prove: hostile strings on every public and admin route', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = (await createOrg(t)).key;
  });
  afterAll(() => t?.close());

  it('covers both documents', () => {
    expect(cases.filter(([, name]) => name === 'admin').length).toBeGreaterThan(100);
    expect(cases.filter(([, name]) => name === 'public').length).toBeGreaterThan(100);
  });

  it.each(cases)('%s: never a 5xx', async (_name, name, document, op, hostile) => {
    const auth: Record<string, string> =
      name === 'admin' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : { 'x-api-key': key };
    const queryNames: string[] = (op.operation.parameters ?? [])
      .filter((p: Json) => p.in === 'query')
      .map((p: Json) => p.name);
    const fields = bodyFields(document, op);
    const body = op.operation.requestBody
      ? JSON.stringify(Object.fromEntries(fields.map((f) => [f, hostile.text])))
      : undefined;
    const headers: Record<string, string> = {
      ...auth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    // Each place on its own, the others well-formed, so the string reaches as far as it can (a field validated
    // first must not shield the one after it): the body, each query parameter, the path's parameters.
    const withId = op.path.replace(/\{[^}]+\}/g, SOME_ID);
    const requests = [
      ...(body === undefined ? [] : [{ path: withId, query: '', body }]),
      ...queryNames.map((q) => ({ path: withId, query: `?${encodeURIComponent(q)}=${hostile.url}`, body })),
      ...(withId === op.path ? [] : [{ path: op.path.replace(/\{[^}]+\}/g, hostile.url), query: '', body }]),
    ];
    for (const r of requests) {
      const res = await fetch(`${t.baseUrl}${r.path}${r.query}`, { method: op.method, headers, body: r.body });
      const text = await res.text();
      // On a 5xx, the request and the answer in the failure message.
      expect({ at: `${r.path}${r.query}`, status: res.status < 500 ? 'below 500' : `${res.status} ${text}` }).toEqual({
        at: `${r.path}${r.query}`,
        status: 'below 500',
      });
      if (res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
        expect(JSON.parse(text).error).toEqual(expect.objectContaining({ code: expect.any(String) }));
      }
    }
  });
});
