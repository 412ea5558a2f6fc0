import type { Vapi } from '@vapi-ai/server-sdk';
import { TestOrg, createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { grantTrial } from '../calls/call-fixtures';
import { FakeVapi } from './fake-vapi';

export const VAPI_SECRET = 'test-vapi-secret';

let numbers = 0;
const nextNumber = () =>
  `+1415557${String(process.pid % 100).padStart(2, '0')}${String(numbers++ % 100).padStart(2, '0')}`;

export interface VoiceOrg extends TestOrg {
  from: string;
  phoneNumberId: string;
}

/**
 * An organization with a number and outbound minutes. With a fake Vapi, the number is bought there and imported
 * (admin creation without providerId), as an operator does, on the carrier named (Vapi's own numbers by
 * default); otherwise it is given a made-up providerId.
 */
export async function voiceOrg(
  t: TestApp,
  mins = 1000,
  fake?: FakeVapi,
  telephony: 'vapi' | 'twilio' = 'vapi',
): Promise<VoiceOrg> {
  const org = await createOrg(t);
  const from = nextNumber();
  const bought = fake?.addNumber(from, telephony);
  const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
    number: from,
    label: 'Main',
    ...(bought ? {} : { providerId: `pn-${from.slice(1)}` }),
  });
  if (res.status !== 201) throw new Error(`phone number: ${res.status} ${res.text}`);
  await grantTrial(t, org.id, mins);
  return { ...org, from, phoneNumberId: res.body.data.providerId };
}

/** The credential ids the fake Vapi account holds (both with VAPI_SECRET), as an operator creates them. */
export const CREDENTIALS = { bearer: 'cred-bearer', hmac: 'cred-hmac' } as const;

/** A strict fake Vapi account and the app under test wired to it (server URLs rebased onto the app). */
export async function startWithVapi(extra: Record<string, string> = {}): Promise<{ fake: FakeVapi; t: TestApp }> {
  const fake = await FakeVapi.start();
  fake.credentials.set(CREDENTIALS.bearer, { type: 'bearer', secret: VAPI_SECRET });
  fake.credentials.set(CREDENTIALS.hmac, { type: 'hmac', secret: VAPI_SECRET });
  const t = await startTestApp({ env: vapiEnv(fake.url, extra) });
  fake.serviceUrl = t.baseUrl;
  return { fake, t };
}

/**
 * Posts one server message to the platform endpoint the way Vapi does (`{ message }`, X-Vapi-Secret). Typed by
 * Vapi's SDK, so every message a test sends is one Vapi could send.
 */
export async function serverMessage(t: TestApp, message: Vapi.ServerMessageMessage, secret = VAPI_SECRET) {
  const body: Vapi.ServerMessage = { message };
  return t.anonymous.post('/platform/vapi/events', body, { headers: { 'x-vapi-secret': secret } });
}

/** Vapi's Call object as server messages carry it; `callId` is ours, in the transient assistant's metadata. */
export const vapiCall = (vapiCallId: string, callId?: string, extra: Partial<Vapi.Call> = {}): Vapi.Call => ({
  id: vapiCallId,
  orgId: 'fake-org',
  type: 'outboundPhoneCall',
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:00:00.000Z',
  ...(callId ? { assistant: { metadata: { callId } } } : {}),
  ...extra,
});

/** One conversation line as Vapi reports it (BotMessage, UserMessage, SystemMessage), said at epoch ms `time`. */
export const vapiLine = (role: 'bot' | 'user' | 'system', message: string, time: number, second = 0) =>
  role === 'system'
    ? { role, message, time, secondsFromStart: second }
    : { role, message, time, endTime: time + 500, secondsFromStart: second };

export const vapiEnv = (baseUrl: string, extra: Record<string, string> = {}) => ({
  VOICE_PROVIDER: 'vapi',
  VAPI_BASE_URL: baseUrl,
  VAPI_API_KEY: 'test-vapi-key',
  VAPI_WEBHOOK_SECRET: VAPI_SECRET,
  VAPI_RETRY_BASE_MS: '20',
  VAPI_CREDENTIAL_ID: CREDENTIALS.bearer,
  PUBLIC_BASE_URL: 'https://calls.example.test',
  ...extra,
});

/** The ledger rows of one call (a settlement writes exactly one). */
export async function ledgerRowsOf(t: TestApp, callId: string) {
  return (await t.db.query('SELECT type, amount_mins, duration_mins FROM minute_ledger WHERE call_id = $1', [callId]))
    .rows;
}
