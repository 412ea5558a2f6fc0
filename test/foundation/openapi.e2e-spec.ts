import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { TestApp, startTestApp } from '../support/test-app';

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('serves exactly the committed openapi/openapi.yaml (run `npm run openapi` after changing the API)', async () => {
    const committed = parse(readFileSync(join(__dirname, '../../openapi/openapi.yaml'), 'utf8'));
    const served = await t.anonymous.get('/docs-json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committed);
  });

  it('documents the API-key scheme and the scope of every operation', async () => {
    const doc = (await t.anonymous.get('/docs-json')).body;
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const operations = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    expect(operations.length).toBeGreaterThan(0);
    for (const op of operations) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op['x-required-scope']).toEqual(expect.any(String));
      expect(op.security).toEqual([{ ApiKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await t.anonymous.get('/docs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger');
  });
});
