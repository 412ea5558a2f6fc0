import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { grantTrial } from '../calls/call-fixtures';
import { FakeRetell, RETELL_KEY } from './fake-retell';
import type { VoiceOrg } from './voice-fixtures';

let numbers = 0;
const nextNumber = () =>
  `+1415558${String(process.pid % 100).padStart(2, '0')}${String(numbers++ % 100).padStart(2, '0')}`;

export const retellEnv = (baseUrl: string, extra: Record<string, string> = {}) => ({
  VOICE_PROVIDER: 'retell',
  RETELL_API_KEY: RETELL_KEY,
  RETELL_BASE_URL: baseUrl,
  PUBLIC_BASE_URL: 'https://calls.example.test',
  ...extra,
});

/** A strict fake Retell account and the app under test wired to it (webhook URLs rebased onto the app). */
export async function startWithRetell(extra: Record<string, string> = {}): Promise<{ fake: FakeRetell; t: TestApp }> {
  const fake = await FakeRetell.start();
  const t = await startTestApp({ env: retellEnv(fake.url, extra) });
  fake.serviceUrl = t.baseUrl;
  return { fake, t };
}

/** An organization with outbound minutes and a number bought in Retell and imported (no providerId), on retell. */
export async function retellOrg(t: TestApp, fake: FakeRetell, mins = 1000): Promise<VoiceOrg> {
  const org = await createOrg(t);
  const from = nextNumber();
  fake.addNumber(from);
  const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, { number: from, label: 'Main' });
  if (res.status !== 201) throw new Error(`phone number: ${res.status} ${res.text}`);
  await grantTrial(t, org.id, mins);
  return { ...org, from, phoneNumberId: res.body.data.providerId };
}
