import { TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** Admin-API shortcuts for messaging tests: what the dashboard does when an account is connected. */
export async function createAccount(
  t: TestApp,
  orgId: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; phoneNumberId: string | null }> {
  const res = await t.admin.post(`/admin/v1/organizations/${orgId}/messaging-accounts`, {
    displayPhoneNumber: '+1 555-010-0100',
    verifiedName: 'Acme Dental',
    ...body,
  });
  if (res.status !== 201) throw new Error(`create account: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function createTemplate(
  t: TestApp,
  accountId: string,
  body: { name: string; language: string; body: string; status?: string },
): Promise<{ id: string }> {
  const res = await t.admin.post(`/admin/v1/messaging-accounts/${accountId}/templates`, body);
  if (res.status !== 201) throw new Error(`create template: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A user's message arrives through the simulator; returns the conversation id. */
export async function userWrites(
  t: TestApp,
  accountId: string,
  from: string,
  text = 'Hello',
  extra: { name?: string; timestamp?: string; messageId?: string } = {},
): Promise<string> {
  const res = await t.admin.post('/admin/v1/simulator/inbound-messages', {
    accountId,
    from,
    name: extra.name ?? 'Ann Lee',
    text,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`inbound: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.conversationId;
}

export const HOUR_MS = 60 * 60 * 1000;
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Polls until `check` returns a truthy value or the time is up (the messaging specs' shorter default). */
export function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 8000): Promise<T> {
  return waitUntil('a messaging condition', check, timeoutMs);
}
