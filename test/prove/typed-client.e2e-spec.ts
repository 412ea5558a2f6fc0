import createClient from 'openapi-fetch';
import { callingOrg } from '../calls/call-fixtures';
import type { paths } from '../../clients/typescript/src/schema';
import { openApiContract } from '../support/openapi-contract';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * An integrator's flow written only with the types generated from openapi/openapi.yaml (the SDK's schema,
 * `npm run sdk`): if the document's types drift from the real responses, this file stops type-checking or the
 * contract check below fails.
 */
describe('prove: generated typed client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('create contact -> list -> create case -> create call -> get call', async () => {
    const org = await callingOrg(t);
    const contract = openApiContract();
    const client = createClient<paths>({ baseUrl: t.baseUrl, headers: { 'x-api-key': org.key } });
    // Every response is checked against the document too, as the HttpClient does.
    client.use({
      async onResponse({ request, response }) {
        const text = await response.clone().text();
        const body = text ? JSON.parse(text) : undefined;
        const problems = contract.check(
          request.method,
          new URL(request.url).pathname,
          response.status,
          body,
          response.headers.get('content-type'),
        );
        if (problems.length) throw new Error(problems.join('\n'));
        return response;
      },
    });

    const contact = await client.POST('/api/v1/contacts', {
      body: { title: 'Ada Lovelace', phone: '+1 415 555 0199', email: 'ada@example.com', tags: ['vip'] },
    });
    expect(contact.response.status).toBe(201);
    const contactId: string = contact.data!.data.id;
    expect(contact.data!.data.phone).toBe('+14155550199');

    const list = await client.GET('/api/v1/contacts', { params: { query: { limit: 10 } } });
    expect(list.data!.data.map((c) => c.id)).toContain(contactId);
    const hasMore: boolean = list.data!.pagination.hasMore;
    expect(hasMore).toBe(false);

    const created = await client.POST('/api/v1/cases', {
      body: { title: 'Renewal', prompt: 'Remind {{name}} about the renewal', firstMessage: 'Hi {{name}}!' },
    });
    expect(created.response.status).toBe(201);
    const caseId = created.data!.data.id;

    const call = await client.POST('/api/v1/calls', {
      body: { to: '+14155550199', from: org.from, contactId, caseId },
    });
    expect(call.response.status).toBe(201);
    expect(call.data!.data.firstMessage).toBe('Hi Ada Lovelace!');

    const fetched = await client.GET('/api/v1/calls/{id}', { params: { path: { id: call.data!.data.id } } });
    expect(fetched.data!.data).toMatchObject({ id: call.data!.data.id, contactId, caseId, direction: 'outbound' });
    const transcript: { role: string; content: string }[] = fetched.data!.data.transcript;
    expect(Array.isArray(transcript)).toBe(true);

    const missing = await client.GET('/api/v1/calls/{id}', {
      params: { path: { id: '00000000-0000-7000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error!.error.code).toBe('NOT_FOUND');
  });
});
