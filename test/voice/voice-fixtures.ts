import { TestOrg, createOrg } from '../support/factory';
import { TestApp } from '../support/test-app';
import { grantTrial } from '../calls/call-fixtures';

export const VAPI_SECRET = 'test-vapi-secret';

let numbers = 0;
const nextNumber = () =>
  `+1415557${String(process.pid % 100).padStart(2, '0')}${String(numbers++ % 100).padStart(2, '0')}`;

export interface VoiceOrg extends TestOrg {
  from: string;
  phoneNumberId: string;
}

/** An organization with a number known to the voice platform (its providerId) and outbound minutes. */
export async function voiceOrg(t: TestApp, mins = 1000): Promise<VoiceOrg> {
  const org = await createOrg(t);
  const from = nextNumber();
  const phoneNumberId = `pn-${from.slice(1)}`;
  const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
    number: from,
    label: 'Main',
    providerId: phoneNumberId,
  });
  if (res.status !== 201) throw new Error(`phone number: ${res.status} ${res.text}`);
  await grantTrial(t, org.id, mins);
  return { ...org, from, phoneNumberId };
}

/** Posts one server message to the platform endpoint the way Vapi does (`{ message }`, X-Vapi-Secret). */
export async function serverMessage(t: TestApp, message: Record<string, unknown>, secret = VAPI_SECRET) {
  return t.anonymous.post('/platform/vapi/events', { message }, { headers: { 'x-vapi-secret': secret } });
}

/** The call-related parts every Vapi server message carries. */
export const vapiCall = (vapiCallId: string, callId: string, extra: Record<string, unknown> = {}) => ({
  id: vapiCallId,
  type: 'outboundPhoneCall',
  assistant: { metadata: { callId } },
  ...extra,
});

export const vapiEnv = (baseUrl: string, extra: Record<string, string> = {}) => ({
  VOICE_PROVIDER: 'vapi',
  VAPI_BASE_URL: baseUrl,
  VAPI_API_KEY: 'test-vapi-key',
  VAPI_WEBHOOK_SECRET: VAPI_SECRET,
  VAPI_RETRY_BASE_MS: '20',
  ...extra,
});

/** The ledger rows of one call (a settlement writes exactly one). */
export async function ledgerRowsOf(t: TestApp, callId: string) {
  return (await t.db.query('SELECT type, amount_mins, duration_mins FROM minute_ledger WHERE call_id = $1', [callId]))
    .rows;
}
