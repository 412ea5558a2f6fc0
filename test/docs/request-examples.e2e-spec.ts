import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEMO_CALL_TO, DEMO_NUMBER } from '../../src/cli/seed-demo';
import { finished, waitForCall } from '../calls/call-fixtures';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

type Json = Record<string, any>;
const ROOT = join(__dirname, '..', '..');
const documents = Object.fromEntries(
  ['openapi', 'admin'].map((name) => [
    name,
    parse(readFileSync(join(ROOT, 'openapi', `${name}.yaml`), 'utf8')) as Json,
  ]),
);

/** Every value under an `example` or `examples` key of a document, with where it was found. */
function examples(node: unknown, path = ''): Array<{ path: string; value: unknown }> {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'example' || key === 'examples'
      ? [{ path: `${path}/${key}`, value }, ...examples(value, `${path}/${key}`)]
      : examples(value, `${path}/${key}`),
  );
}

/** The strings inside a value, however deep. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

/** RFC 2606 / 6761: names that can never reach someone's real server. */
const RESERVED_HOST = /(^|\.)(example\.(com|net|org)|example|test|invalid)$/;

/** The operations of the public document whose request body carries an example. */
const publicExamples = Object.entries(documents.openapi.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).flatMap(([method, op]: [string, Json]) => {
    const example = op?.requestBody?.content?.['application/json']?.example;
    return example ? [{ operationId: op.operationId as string, method: method.toUpperCase(), path, example }] : [];
  }),
);

interface Prepared {
  /** The path with its `{id}` filled in. */
  path?: string;
  /** Fields of the example replaced by ids the organization owns (an example's ids are nobody's). */
  overrides?: Json;
}

/**
 * Every documented request example is accepted by the service (docs: the README's "OpenAPI" section). Each is
 * posted to a fresh organization, after creating what it refers to (its caller ID, the record a PATCH changes, a
 * conversation). They work against the demo as it starts (docs/contracts/conventions.md): every caller ID is the
 * demo's number, no example lists on do-not-call a number another example calls, none uses the number the demo's
 * curl calls, and no example of either document names a URL that could receive events.
 */
describe('OpenAPI request examples are safe and accepted', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The example webhook URL's host may not resolve here; resolving is not what is tested.
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const created = async (res: Promise<{ status: number; body: any; text: string }>, what: string) => {
    const done = await res;
    if (done.status !== 201) throw new Error(`${what}: ${done.status} ${done.text}`);
    return done.body.data;
  };
  const exampleOf = (operationId: string) => publicExamples.find((e) => e.operationId === operationId)!.example;
  /**
   * Gives the organization the example's caller ID. A number belongs to one organization at most, and several
   * examples name the same one: an earlier organization's hold on it is moved (a fixture written in the database).
   */
  const number = async (org: TestOrg, value: string) => {
    await t.db.query('DELETE FROM phone_numbers WHERE number = $1', [value]);
    return created(
      t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: value, label: 'Main' }),
      'number',
    );
  };

  /** What each example needs first; an example missing here fails the test, so a new one is covered at once. */
  /** The operation's path at a new scenario of a new case. */
  async function atScenario(org: TestOrg, path: string): Promise<Prepared> {
    const c = await created(org.api.post('/api/v1/cases', exampleOf('createCase')), 'case');
    const s = await created(org.api.post('/api/v1/scenarios', { ...exampleOf('createScenario'), caseId: c.id }), 's');
    return { path: path.replace('{id}', s.id) };
  }

  const PREPARE: Record<string, (org: TestOrg, path: string) => Promise<Prepared>> = {
    createOutboundAssistant: async () => ({}),
    updateOutboundAssistant: async (org, path) => {
      const a = await created(org.api.post('/api/v1/assistants/outbound', exampleOf('createOutboundAssistant')), 'a');
      return { path: path.replace('{id}', a.id) };
    },
    updateInboundAssistant: async (org, path) => {
      const prompt = await created(
        t.admin.post(`/admin/v1/organizations/${org.id}/prompts`, { content: 'You answer for Acme.' }),
        'prompt',
      );
      const inbound = await created(
        t.admin.post(`/admin/v1/organizations/${org.id}/inbound-assistants`, {
          name: 'Reception',
          systemPromptId: prompt.id,
        }),
        'inbound assistant',
      );
      return { path: path.replace('{id}', inbound.id) };
    },
    createCall: async (org) => {
      await number(org, exampleOf('createCall').from);
      await t.admin.post(`/admin/v1/organizations/${org.id}/trial`, { days: 30, mins: 100 });
      return {};
    },
    labelCall: async (org, path) => {
      // An ended call to label: a number ending in 8 is not answered on the simulator, so it ends after ringing.
      await number(org, exampleOf('createCall').from);
      await t.admin.post(`/admin/v1/organizations/${org.id}/trial`, { days: 30, mins: 100 });
      const call = await created(
        org.api.post('/api/v1/calls', { to: '+14155550108', from: exampleOf('createCall').from }),
        'call',
      );
      await waitForCall(org, call.id, finished);
      return { path: path.replace('{id}', call.id) };
    },
    createCampaign: async (org) => {
      await number(org, exampleOf('createCampaign').from);
      return {};
    },
    createCase: async () => ({}),
    updateCase: async (org, path) => {
      const c = await created(org.api.post('/api/v1/cases', exampleOf('createCase')), 'case');
      return { path: path.replace('{id}', c.id) };
    },
    createScenario: async (org) => {
      const c = await created(org.api.post('/api/v1/cases', exampleOf('createCase')), 'case');
      return { overrides: { caseId: c.id } };
    },
    runScenario: atScenario,
    updateScenario: atScenario,
    runCaseScenarios: async (org) => {
      const c = await created(org.api.post('/api/v1/cases', exampleOf('createCase')), 'case');
      await created(org.api.post('/api/v1/scenarios', { ...exampleOf('createScenario'), caseId: c.id }), 'scenario');
      return { overrides: { caseId: c.id } };
    },
    createContact: async () => ({}),
    createContactsBatch: async () => ({}),
    updateContact: async (org, path) => {
      const c = await created(org.api.post('/api/v1/contacts', exampleOf('createContact')), 'contact');
      return { path: path.replace('{id}', c.id) };
    },
    addDoNotCall: async () => ({}),
    sendMessage: async (org) => {
      const account = await created(
        t.admin.post(`/admin/v1/organizations/${org.id}/messaging-accounts`, {
          displayPhoneNumber: '+1 555-010-0142',
          verifiedName: 'Acme',
          phoneNumberId: `pn-examples-${org.id}`,
        }),
        'messaging account',
      );
      const inbound = await created(
        t.admin.post('/admin/v1/simulator/inbound-messages', {
          accountId: account.id,
          from: '+14155550187',
          text: 'Can I move my appointment?',
        }),
        'inbound message',
      );
      return { overrides: { conversationId: inbound.conversationId } };
    },
    createWebhook: async () => ({}),
    updateWebhook: async (org, path) => {
      const hook = await created(org.api.post('/api/v1/webhooks', exampleOf('createWebhook')), 'webhook');
      return { path: path.replace('{id}', hook.id) };
    },
  };

  it('covers every request example of the public document (and there are some)', () => {
    expect(publicExamples.length).toBeGreaterThanOrEqual(10);
    expect(publicExamples.map((e) => e.operationId).filter((id) => !PREPARE[id])).toEqual([]);
  });

  it.each(publicExamples.map((e) => [e.operationId, e] as const))(
    '%s: its example is accepted as documented',
    async (_id, { operationId, method, path, example }) => {
      const org = await createOrg(t);
      const prepared = await PREPARE[operationId](org, path);
      const body = { ...example, ...prepared.overrides };
      const res = await org.api.request(method, prepared.path ?? path, { body });
      expect({ operationId, error: res.body?.error }).toEqual({ operationId, error: undefined });
      expect([200, 201, 202]).toContain(res.status);
    },
  );

  /** The example's values under `key`, wherever in it they are (a body, a nested row). */
  const valuesOf = (value: unknown, key: string): unknown[] =>
    value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => [...(k === key ? [v].flat() : []), ...valuesOf(v, key)])
      : [];

  it("openapi.yaml: every caller ID a request example names is the demo's number, so the example works in the demo", () => {
    const callerIds = publicExamples.flatMap(({ operationId, example }) =>
      [...valuesOf(example, 'from'), ...valuesOf(example, 'fromNumbers')].map((from) => ({ operationId, from })),
    );
    expect(callerIds.length).toBeGreaterThan(0);
    expect(callerIds.filter((c) => c.from !== DEMO_NUMBER)).toEqual([]);
  });

  it('openapi.yaml: no request example lists on do-not-call a number another example calls', () => {
    const listed = publicExamples
      .filter((e) => e.operationId === 'addDoNotCall')
      .flatMap(({ example }) => valuesOf(example, 'number'));
    const called = publicExamples.flatMap(({ example }) => [...valuesOf(example, 'to'), ...valuesOf(example, 'phone')]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((n) => called.includes(n) || n === DEMO_CALL_TO || n === DEMO_NUMBER)).toEqual([]);
  });

  it.each(Object.keys(documents))(
    "%s.yaml: no example uses the number the demo's ready-to-paste curl calls",
    (name) => {
      const found = examples(documents[name]).flatMap(({ path, value }) =>
        strings(value)
          .filter((s) => s.includes(DEMO_CALL_TO))
          .map((s) => `${path}: ${s}`),
      );
      expect(found).toEqual([]);
    },
  );

  it.each(Object.keys(documents))('%s.yaml: every example URL is on a reserved example domain', (name) => {
    const urls = examples(documents[name]).flatMap(({ path, value }) =>
      strings(value)
        .flatMap((s) => s.match(/https?:\/\/[^\s"'`)]+/g) ?? [])
        .map((url) => ({ path, url })),
    );
    const unsafe = urls
      .filter(({ url }) => !RESERVED_HOST.test(new URL(url).hostname))
      .map((u) => `${u.path}: ${u.url}`);
    expect(unsafe).toEqual([]);
    if (name === 'openapi') expect(urls.length).toBeGreaterThan(0);
  });
});
