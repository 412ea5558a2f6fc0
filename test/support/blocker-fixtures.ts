import { randomUUID } from 'node:crypto';
import { TestApp } from './test-app';

/** Things that reference a case or an outbound assistant and so block deleting it. */
export interface References {
  caseId?: string;
  assistantConfigId?: string;
}

/**
 * A call waiting for dispatch, written straight into `calls`: POST /calls is built in parallel on another
 * branch, so this is the one place these tests write through the pool (an impossible-via-this-branch fixture).
 */
export async function insertQueuedCall(
  t: TestApp,
  orgId: string,
  refs: References,
  status: 'new' | 'scheduled' | 'lock-processing' | 'processing' | 'ended' | 'cancelled' | 'error' = 'new',
): Promise<string> {
  const id = randomUUID();
  await t.db.query(
    `INSERT INTO calls (id, organization_id, status, direction, call_from, call_to, case_id, assistant_config_id)
     VALUES ($1, $2, $3, 'outbound', '+14155550100', '+14155550123', $4, $5)`,
    [id, orgId, status, refs.caseId ?? null, refs.assistantConfigId ?? null],
  );
  return id;
}

export async function createRecurringSchedule(
  t: TestApp,
  orgId: string,
  refs: References,
  status: 'active' | 'paused' = 'active',
): Promise<string> {
  const res = await t.admin.post(`/admin/v1/organizations/${orgId}/recurring-schedules`, { ...refs, status });
  if (res.status !== 201) throw new Error(`recurring schedule: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function createFollowUpCampaign(t: TestApp, orgId: string, refs: References): Promise<string> {
  const res = await t.admin.post(`/admin/v1/organizations/${orgId}/follow-up-campaigns`, refs);
  if (res.status !== 201) throw new Error(`follow-up campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function createPrompt(t: TestApp, orgId: string, content: string): Promise<string> {
  const res = await t.admin.post(`/admin/v1/organizations/${orgId}/prompts`, { content });
  if (res.status !== 201) throw new Error(`prompt: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}
