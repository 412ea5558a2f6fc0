import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallBilling } from '../../src/modules/usage/call-billing.port';
import { TestApp } from '../support/test-app';
import { inTransaction } from '../../src/infra/database/tx';

/** Drives the ledger the way the calls module does: through the CallBilling port, never its tables. */
export function billing(t: TestApp) {
  const port = t.app.get(CallBilling);
  const dataSource = t.app.get(DataSource);
  return {
    port,
    reserve: async (orgId: string, callId: string = randomUUID()) =>
      (await inTransaction(dataSource, (m) => port.reserveForDispatch(m, orgId, [callId]))).get(callId),
    /** A whole outbound call: reserve at dispatch, settle at the end. */
    async outbound(orgId: string, seconds: number | null, providerCallId: string | null = `prov-${randomUUID()}`) {
      const callId = randomUUID();
      const reserved = (await inTransaction(dataSource, (m) => port.reserveForDispatch(m, orgId, [callId]))).get(
        callId,
      );
      await port.settleCall({
        organizationId: orgId,
        callId,
        direction: 'outbound',
        durationSeconds: seconds,
        providerCallId,
      });
      return { callId, reserved, providerCallId };
    },
    async inbound(orgId: string, seconds: number) {
      const callId = randomUUID();
      await port.settleCall({
        organizationId: orgId,
        callId,
        direction: 'inbound',
        durationSeconds: seconds,
        providerCallId: `in-${callId}`,
      });
      return callId;
    },
  };
}

export async function admin(t: TestApp, path: string, body: unknown = {}) {
  const res = await t.admin.post(path, body);
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
