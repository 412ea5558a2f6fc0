import { callingOrg } from '../calls/call-fixtures';
import { HttpClient, HttpResponse } from '../support/http';
import { ContractOperation, openApiContract } from '../support/openapi-contract';
import { TestApp, startTestApp } from '../support/test-app';
import { MAKERS, MakerOrg, collectionOf } from './support/resource-makers';

/**
 * The red-team walk of the two worlds (README: "Test and live"): every templated route of the OpenAPI document
 * (openapi/openapi.yaml, so a new route joins automatically) sent with the other world's key of the same
 * organization. A resource whose documented object carries `livemode` is per-world data: the other world's key
 * gets 404 NOT_FOUND, as another organization's would, and the resource is untouched. A resource without it is
 * organization-wide configuration (cases, assistants): both worlds reach it. Both directions are walked.
 */
/**
 * The organization-wide configuration (README: "Test and live"): every other resource is per-world data and its
 * documented object carries `livemode`. A new resource must be one or the other, and this list says which.
 */
const CONFIGURATION = [
  '/api/v1/assistants/inbound',
  '/api/v1/assistants/outbound',
  '/api/v1/cases',
  // A caller ID serves both worlds; its health route answers each world's own figures.
  '/api/v1/phone-numbers',
];

const contract = openApiContract();
const templated = contract.operations.filter((op) => op.path.includes('{'));
const schemas = contract.document.components.schemas as Record<string, any>;

/** `GET {collection}/{id}` (whatever its parameter is called), when the collection has one. */
const itemGet = (collection: string) =>
  contract.operations.find(
    (o) => o.method === 'GET' && /^\/\{\w+\}$/.test(o.path.slice(collection.length)) && o.path.startsWith(collection),
  );

/**
 * Collections no GET lists or reads (a message is sent by POST and read inside its conversation, so only its media
 * route is templated): the schema of their objects, by name.
 */
const DOCUMENTED_ELSEWHERE: Record<string, string> = { '/api/v1/messaging/messages': 'Message' };

/** The documented object of a collection: the `data` of its item GET, or of its list. */
function resourceSchema(collection: string): any {
  if (DOCUMENTED_ELSEWHERE[collection]) return deref(schemas[DOCUMENTED_ELSEWHERE[collection]]);
  const op = itemGet(collection) ?? contract.operations.find((o) => o.method === 'GET' && o.path === collection);
  if (!op) throw new Error(`No GET documents the objects of ${collection}`);
  let schema = op.operation.responses['200'].content['application/json'].schema;
  schema = deref(schema);
  let data = deref(schema.properties?.data ?? schema.allOf?.find((s: any) => deref(s).properties?.data));
  if (data?.properties?.data) data = deref(data.properties.data);
  return deref(data?.type === 'array' ? data.items : data);
}
const deref = (s: any): any => {
  if (s?.$ref) return deref(schemas[s.$ref.split('/').pop()]);
  if (s?.allOf?.length === 1) return deref(s.allOf[0]);
  return s;
};
const perWorld = (collection: string) => {
  const schema = resourceSchema(collection);
  const props = {
    ...(schema.properties ?? {}),
    ...Object.assign({}, ...(schema.allOf ?? []).map((s: any) => deref(s).properties ?? {})),
  };
  return 'livemode' in props;
};

function send(api: HttpClient, op: ContractOperation, ids: Record<string, string>): Promise<HttpResponse> {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? ids.id);
  return api.request(op.method, path, op.operation.requestBody ? { body: {} } : {});
}

interface World {
  name: 'live' | 'test';
  org: MakerOrg;
  /** Path ids of the resources made in this world, by collection. */
  ids: Map<string, Record<string, string>>;
}

describe('prove: the other world’s key on every templated route', () => {
  let t: TestApp;
  const worlds: World[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
    const live = await callingOrg(t);
    const testKey = await live.keyWith(['*'], { environment: 'test' });
    for (const [name, org] of [
      ['live', { ...live, livemode: true }],
      ['test', { ...live, key: testKey.key, keyId: testKey.id, api: testKey.api, livemode: false }],
    ] as const) {
      const ids = new Map<string, Record<string, string>>();
      for (const op of templated) {
        const collection = collectionOf(op.path);
        if (ids.has(collection) || !MAKERS[collection]) continue;
        ids.set(collection, { id: await MAKERS[collection](t, org) });
      }
      // A real delivery of the world's endpoint, so its delivery routes are asked about a delivery that exists.
      const hook = ids.get('/api/v1/webhooks')!;
      const ping = await org.api.post(`/api/v1/webhooks/${hook.id}/test`);
      expect(ping.status).toBe(200);
      hook.deliveryId = ping.body.data.id;
      worlds.push({ name, org, ids });
    }
  });
  afterAll(() => t?.close());

  it('walks every templated route; a resource without livemode is configuration by decision, not by omission', () => {
    expect(templated.length).toBeGreaterThan(15);
    const collections = [...new Set(templated.map((op) => collectionOf(op.path)))];
    expect(collections.filter(perWorld).length).toBeGreaterThan(4);
    expect(collections.filter((c) => !perWorld(c)).sort()).toEqual([...CONFIGURATION].sort());
  });

  const cases = templated.flatMap((op) =>
    (['live', 'test'] as const).map((owner) => [`${op.method} ${op.path} on a ${owner} resource`, op, owner] as const),
  );

  it.each(cases)('%s: the other world’s key', async (_n, op, ownerName) => {
    const owner = worlds.find((w) => w.name === ownerName)!;
    const other = worlds.find((w) => w.name !== ownerName)!;
    const collection = collectionOf(op.path);
    const ids = owner.ids.get(collection);
    if (!ids) throw new Error(`No maker for ${collection}: add one to test/prove/support/resource-makers.ts`);
    const getOp = itemGet(collection);
    if (perWorld(collection)) {
      const res = await send(other.org.api, op, ids);
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
      // Untouched: its own world still reads it.
      if (getOp) expect((await send(owner.org.api, getOp, ids)).status).toBe(200);
      // Where no GET reads the object, its own world's key at least finds it on the same route.
      else expect((await send(owner.org.api, op, ids)).status).not.toBe(404);
    } else {
      // Configuration is the organization's: the other world reaches it (a fresh one, as a DELETE may go through).
      const res = await send(other.org.api, op, { id: await MAKERS[collection](t, owner.org) });
      expect(res.status).not.toBe(404);
    }
  });
});
