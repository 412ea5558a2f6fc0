import { CursorCodec } from '../../src/common/pagination/cursor-codec';
import { parseConfig } from '../../src/infra/config/app-config';
import { callingOrg, CallsOrg } from '../calls/call-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';

/** docs/contracts/bounds.md at each boundary: the limit itself accepted, one more refused with a 400 naming the field. */
describe('input bounds', () => {
  let t: TestApp;
  let org: CallsOrg;
  let phones = 0;
  const phone = () => `+1202555${String(1000 + phones++).padStart(4, '0')}`;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
  });
  afterAll(() => t?.close());

  const contact = (extra: Record<string, unknown>) =>
    org.api.post('/api/v1/contacts', { title: 'Bounded', phone: phone(), ...extra });
  const refusedNaming = (res: { status: number; body: any }, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.message).toContain(field);
  };
  const fields = (n: number, value: (i: number) => unknown = (i) => i) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));

  describe('JSON bodies, decided before parsing', () => {
    // title + phone + n-2 elements of an unknown (stripped) array = n members.
    const withMembers = (n: number) => JSON.stringify({ title: 'M', phone: phone(), extra: Array(n - 3).fill(0) });
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 2)}{}${'}'.repeat(depth - 2)}`;

    it('takes 2,000 members in total and refuses 2,001', async () => {
      expect((await org.api.post('/api/v1/contacts', withMembers(2000))).status).toBe(201);
      refusedNaming(await org.api.post('/api/v1/contacts', withMembers(2001)), 'members');
    });

    it('takes nesting 32 deep and refuses 33 (5,000 deep is a 400, never a 500)', async () => {
      const body = (depth: number) => `{"title":"N","phone":"${phone()}","extra":${nested(depth)}}`;
      expect((await org.api.post('/api/v1/contacts', body(32))).status).toBe(201);
      refusedNaming(await org.api.post('/api/v1/contacts', body(33)), 'nested deeper than 32');
      refusedNaming(
        await org.api.post('/api/v1/contacts', { title: 'D', phone: phone(), customFields: 1 }),
        'customFields',
      );
      const deep = `{"title":"D","phone":"${phone()}","customFields":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
      refusedNaming(await org.api.post('/api/v1/contacts', deep), 'nested');
    });

    it('decides before parsing: 1 MiB bodies are refused at their 2,001st member, and a probe among them answers', async () => {
      // 340,000 members, then bytes that are not JSON at all: a parser would answer a syntax error, so a refusal
      // naming the members proves the count stopped the body before any object was built. (How fast the probe
      // answers meanwhile is a measurement for a benchmark, never an assertion in a test.)
      const wide = `{"a":[${Array(340_000).fill('1').join(',')}]} this is not JSON`;
      const attacks = Array.from({ length: 8 }, () => org.api.post('/api/v1/contacts', wide));
      const probe = t.anonymous.get('/health/live');
      for (const res of await Promise.all(attacks)) refusedNaming(res, 'more than 2000 members');
      expect((await probe).status).toBe(200);
    });
  });

  describe('customFields', () => {
    it('takes 100 keys and refuses 101', async () => {
      expect((await contact({ customFields: fields(100) })).status).toBe(201);
      refusedNaming(await contact({ customFields: fields(101) }), 'customFields');
    });

    it('takes keys of 1-64 characters and refuses 0 or 65', async () => {
      expect((await contact({ customFields: { a: 1, ['k'.repeat(64)]: 2 } })).status).toBe(201);
      refusedNaming(await contact({ customFields: { ['k'.repeat(65)]: 2 } }), 'customFields');
      refusedNaming(await contact({ customFields: { '': 2 } }), 'customFields');
    });

    it('takes string values of 1,000 characters and refuses 1,001', async () => {
      expect((await contact({ customFields: { s: 'v'.repeat(1000) } })).status).toBe(201);
      refusedNaming(await contact({ customFields: { s: 'v'.repeat(1001) } }), 'customFields');
    });

    it('takes numbers, booleans and null, refuses nested objects and arrays', async () => {
      const res = await contact({ customFields: { n: 1.5, b: false, z: null, s: 'x' } });
      expect(res.status).toBe(201);
      expect(res.body.data.customFields).toEqual({ n: 1.5, b: false, z: null, s: 'x' });
      refusedNaming(await contact({ customFields: { o: { a: 1 } } }), 'customFields');
      refusedNaming(await contact({ customFields: { a: [1] } }), 'customFields');
    });

    it('takes 16 KB serialised and refuses one byte more', async () => {
      // {"k0":"…","k1":"…", …}: 17 keys of 1,000 characters overshoot, so size the last value to land exactly.
      const exact = fields(16, () => 'v'.repeat(1000));
      const size = Buffer.byteLength(JSON.stringify({ ...exact, last: '' }));
      exact.last = 'v'.repeat(16 * 1024 - size);
      expect(Buffer.byteLength(JSON.stringify(exact))).toBe(16 * 1024);
      expect((await contact({ customFields: exact })).status).toBe(201);
      refusedNaming(await contact({ customFields: { ...exact, last: `${exact.last as string}v` } }), '16384 bytes');
    });

    it('holds on update too', async () => {
      const id = (await contact({})).body.data.id as string;
      refusedNaming(await org.api.patch(`/api/v1/contacts/${id}`, { customFields: fields(101) }), 'customFields');
    });
  });

  describe('assistants and calls', () => {
    const assistant = (systemPrompt: string) =>
      org.api.post('/api/v1/assistants/outbound', {
        name: 'Bounded',
        voice: { provider: '11labs', voiceId: 'rachel' },
        model: { provider: 'openai', model: 'gpt-4o-mini' },
        systemPrompt,
      });
    const call = (extra: Record<string, unknown>) =>
      org.api.post('/api/v1/calls', { to: phone(), from: org.from, ...extra });

    it('an outbound assistant systemPrompt takes 50,000 characters and refuses 50,001', async () => {
      expect((await assistant('p'.repeat(50_000))).status).toBe(201);
      refusedNaming(await assistant('p'.repeat(50_001)), 'systemPrompt');
    });

    it('an organization takes 100 outbound assistants and refuses the 101st with 422 MAX_ASSISTANTS', async () => {
      const capped = await callingOrg(t);
      const create = (i: number) =>
        capped.api.post('/api/v1/assistants/outbound', {
          name: `Assistant ${i}`,
          voice: { provider: '11labs', voiceId: 'rachel' },
          model: { provider: 'openai', model: 'gpt-4o-mini' },
        });
      for (let i = 0; i < 100; i++) expect((await create(i)).status).toBe(201);
      const refused = await create(100);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'MAX_ASSISTANTS' });
      const listed = await capped.api.get('/api/v1/assistants/outbound');
      expect(listed.body.data).toHaveLength(100);
      // The summary only: the list never reads the system prompt.
      expect(listed.body.data[0]).not.toHaveProperty('systemPrompt');
    });

    it('an organization takes 100 inbound assistants and refuses the 101st with 422 MAX_ASSISTANTS', async () => {
      const capped = await createOrg(t);
      const prompt = await t.admin.post(`/admin/v1/organizations/${capped.id}/prompts`, { content: 'Answer calls.' });
      expect(prompt.status).toBe(201);
      const create = (i: number) =>
        t.admin.post(`/admin/v1/organizations/${capped.id}/inbound-assistants`, {
          name: `Inbound ${i}`,
          systemPromptId: prompt.body.data.id,
        });
      for (let i = 0; i < 100; i++) expect((await create(i)).status).toBe(201);
      const refused = await create(100);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'MAX_ASSISTANTS' });
      expect((await capped.api.get('/api/v1/assistants/inbound')).body.data).toHaveLength(100);
      // The cap is per organization: another one still creates its first.
      const other = await createOrg(t);
      const otherPrompt = await t.admin.post(`/admin/v1/organizations/${other.id}/prompts`, { content: 'Hi.' });
      expect(
        (
          await t.admin.post(`/admin/v1/organizations/${other.id}/inbound-assistants`, {
            name: 'First',
            systemPromptId: otherPrompt.body.data.id,
          })
        ).status,
      ).toBe(201);
    });

    it('an organization takes 20 messaging accounts and refuses the 21st with 422 MAX_MESSAGING_ACCOUNTS', async () => {
      const capped = await createOrg(t);
      const connect = (i: number) =>
        t.admin.post(`/admin/v1/organizations/${capped.id}/messaging-accounts`, {
          displayPhoneNumber: `+1 555-010-${String(1000 + i)}`,
          verifiedName: `Business ${i}`,
        });
      for (let i = 0; i < 20; i++) expect((await connect(i)).status).toBe(201);
      const refused = await connect(20);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'MAX_MESSAGING_ACCOUNTS' });
      expect((await capped.api.get('/api/v1/messaging/accounts')).body.data).toHaveLength(20);
    });

    it('an organization takes 100 phone numbers and refuses the 101st with 422 MAX_PHONE_NUMBERS', async () => {
      const capped = await createOrg(t);
      const assign = (i: number) =>
        t.admin.post(`/admin/v1/organizations/${capped.id}/phone-numbers`, {
          number: `+1303555${String(1000 + i)}`,
          label: `Line ${i}`,
        });
      for (let i = 0; i < 100; i++) expect((await assign(i)).status).toBe(201);
      const refused = await assign(100);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'MAX_PHONE_NUMBERS' });
      expect((await capped.api.get('/api/v1/phone-numbers')).body.data).toHaveLength(100);
      // The refused number was not assigned: another organization can still take it.
      const other = await createOrg(t);
      expect(
        (await t.admin.post(`/admin/v1/organizations/${other.id}/phone-numbers`, { number: '+13035551100' })).status,
      ).toBe(201);
    });

    it('an organization takes 100 contact groups and refuses the 101st with 422 MAX_CONTACT_GROUPS', async () => {
      const capped = await createOrg(t);
      const create = (i: number) =>
        t.admin.post(`/admin/v1/organizations/${capped.id}/contact-groups`, { name: `Group ${i}` });
      for (let i = 0; i < 100; i++) expect((await create(i)).status).toBe(201);
      const refused = await create(100);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({ code: 'MAX_CONTACT_GROUPS' });
      expect((await capped.api.get('/api/v1/contact-groups')).body.data).toHaveLength(100);
    });

    it('variableValues take 100 keys of 1,000-character values and refuse 101 keys or 1,001 characters', async () => {
      expect((await call({ variableValues: fields(100, () => 'v'.repeat(1000)) })).status).toBe(201);
      refusedNaming(await call({ variableValues: fields(101, () => 'v') }), 'variableValues');
      refusedNaming(await call({ variableValues: { a: 'v'.repeat(1001) } }), 'variableValues');
    });

    it('the rendered first message takes 1,000 characters and refuses 1,001, naming firstMessage', async () => {
      const firstMessage = '{{a}}{{a}}';
      expect((await call({ firstMessage, variableValues: { a: 'v'.repeat(500) } })).status).toBe(201);
      refusedNaming(
        await call({ firstMessage: `${firstMessage}!`, variableValues: { a: 'v'.repeat(500) } }),
        'firstMessage',
      );
    });

    it('the rendered system prompt takes 50,000 characters and refuses 50,001 (a 5 KB request cannot store 10 MB)', async () => {
      const kase = await org.api.post('/api/v1/cases', { title: 'Amplifier', prompt: '{{a}}'.repeat(2000) });
      expect(kase.status).toBe(201);
      const caseId = kase.body.data.id as string;
      const ok = await call({ caseId, variableValues: { a: 'v'.repeat(25) } });
      expect(ok.status).toBe(201);
      refusedNaming(await call({ caseId, variableValues: { a: 'v'.repeat(26) } }), 'systemPrompt');
      refusedNaming(await call({ caseId, variableValues: { a: 'v'.repeat(1000) } }), 'systemPrompt');
      const stored = await t.db.query(
        'SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND case_id = $2',
        [org.id, caseId],
      );
      expect(stored.rows[0].n).toBe(1);
    });
  });

  describe('every refusal in the envelope', () => {
    it('a path id of 100 characters is a 400 naming id; of 101 an unknown id: 404 NOT_FOUND, not Fastify 414', async () => {
      const at100 = await org.api.get(`/api/v1/contacts/${'a'.repeat(100)}`);
      refusedNaming(at100, 'id');
      const at101 = await org.api.get(`/api/v1/contacts/${'a'.repeat(101)}`);
      expect(at101.status).toBe(404);
      expect(at101.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
      expect(at101.headers.get('x-request-id')).toBeTruthy();
    });

    it('a well-signed cursor with a malformed payload is 400 INVALID_CURSOR, never a 500', async () => {
      // The secret this test app runs with, as an operator (or a leaked old build) would hold it.
      const codec = new CursorCodec(parseConfig({ NODE_ENV: 'test' }).cursorSecret);
      const sign = (payload: unknown) => {
        const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
        return `${text}.${(codec as unknown as { sign(p: string): string }).sign(text)}`;
      };
      for (const payload of [null, { s: 'not a date', i: 'x', f: '' }, { s: '2026-01-01T00:00:00.000Z', i: 'x' }]) {
        const res = await org.api.get('/api/v1/contacts', { query: { cursor: sign(payload) } });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('INVALID_CURSOR');
      }
    });
  });
});
