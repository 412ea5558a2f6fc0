import { createOrg } from '../support/factory';
import { ContractViolation, openApiContract } from '../support/openapi-contract';
import { TestApp, startTestApp } from '../support/test-app';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The response validator every HttpClient request goes through: it must catch each kind of drift. */
describe('prove: contract conformance', () => {
  const contract = openApiContract();

  it('knows every public operation, each with a scope', () => {
    expect(contract.operations.length).toBeGreaterThan(20);
    for (const op of contract.operations) expect(op.requiredScope).toMatch(/^[a-z_]+:(read|write)$/);
  });

  it('matches literal paths before templated ones and skips undocumented paths', () => {
    expect(contract.match('GET', '/api/v1/contacts/search')?.operationId).toBe('searchContacts');
    expect(contract.match('GET', '/api/v1/contacts/0190f0c0-0000-7000-8000-000000000000')?.path).toBe(
      '/api/v1/contacts/{id}',
    );
    expect(contract.match('GET', '/admin/v1/organizations')).toBeUndefined();
    expect(contract.check('GET', '/health', 500, 'boom', 'text/plain')).toEqual([]);
  });

  it('rejects an undocumented status, a wrong body, an undocumented field and an undocumented error code', () => {
    expect(contract.check('GET', '/api/v1/contacts', 418, {}, JSON_TYPE).join()).toMatch(/status not documented/);
    expect(contract.check('GET', '/api/v1/organization', 200, { data: { id: 5 } }, JSON_TYPE).join()).toMatch(
      /must be string/,
    );
    expect(
      contract
        .check(
          'GET',
          '/api/v1/contacts',
          200,
          { data: [], pagination: { cursor: null, hasMore: false, pageSize: 25 }, extra: 1 },
          JSON_TYPE,
        )
        .join(),
    ).toMatch(/additional properties/);
    expect(
      contract.check('GET', '/api/v1/contacts', 401, { error: { code: 'NOT_FOUND', message: 'x' } }, JSON_TYPE).join(),
    ).toMatch(/error code NOT_FOUND not documented/);
  });

  describe('against the running app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t?.close());

    it('the HttpClient passes conforming responses and throws on a violation', async () => {
      const org = await createOrg(t);
      const ok = await org.api.get('/api/v1/organization');
      expect(ok.status).toBe(200);
      // An operation documented with a different method set: a request the document does not describe at all.
      const spy = jest.spyOn(contract, 'check').mockReturnValueOnce(['forced']);
      await expect(org.api.get('/api/v1/organization')).rejects.toBeInstanceOf(ContractViolation);
      spy.mockRestore();
    });
  });
});
