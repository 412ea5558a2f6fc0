import { HttpClient } from './http';
import { TestApp } from './test-app';

export interface TestOrg {
  id: string;
  key: string;
  keyId: string;
  /** An HTTP client that sends this organization's key. */
  api: HttpClient;
  /** Another key of the same organization with other scopes. */
  keyWith(scopes: string[], extra?: Record<string, unknown>): Promise<{ id: string; key: string; api: HttpClient }>;
}

function expectCreated<T>(response: { status: number; body: any }, what: string): T {
  if (response.status !== 201) throw new Error(`${what} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as T;
}

/** An organization with a key in one line, made through the admin API like the dashboard does. */
export async function createOrg(
  t: Pick<TestApp, 'admin' | 'baseUrl'>,
  options: { scopes?: string[]; name?: string; profile?: boolean } = {},
): Promise<TestOrg> {
  const org = expectCreated<{ id: string }>(
    await t.admin.post('/admin/v1/organizations', {
      name: options.name ?? 'Test org',
      profile: options.profile ?? true,
    }),
    'create organization',
  );
  const keyWith = async (scopes: string[], extra: Record<string, unknown> = {}) => {
    const created = expectCreated<{ id: string; key: string }>(
      await t.admin.post(`/admin/v1/organizations/${org.id}/api-keys`, { scopes, name: 'test', ...extra }),
      'create api key',
    );
    return { id: created.id, key: created.key, api: new HttpClient(t.baseUrl, { 'x-api-key': created.key }) };
  };
  const main = await keyWith(options.scopes ?? ['*']);
  return { id: org.id, key: main.key, keyId: main.id, api: main.api, keyWith };
}
