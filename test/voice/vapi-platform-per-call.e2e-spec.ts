import { HttpClient } from '../support/http';
import { ADMIN_TOKEN, TestApp, startTestApp } from '../support/test-app';
import { createOrg } from '../support/factory';
import { finished, waitForCall } from '../calls/call-fixtures';
import type { FakeVapi } from './fake-vapi';
import { VoiceOrg, startWithVapi, voiceOrg } from './voice-fixtures';
import { FakeRetell } from './fake-retell';
import { retellEnv, retellOrg } from './retell-fixtures';

/** Vapi's figures of a call that talked for 42 s. */
const TALKED = {
  endedReason: 'customer-ended-call',
  startedAt: '2025-01-01T10:00:00.000Z',
  endedAt: '2025-01-01T10:00:42.000Z',
  cost: 0.05,
} as const;

/**
 * The platform is stored on the call when it is made (docs/providers.md, "The platform per number"): live calls
 * placed on Vapi, then the service restarted with VOICE_PROVIDER=simulator (Vapi's credentials kept), are still
 * Vapi's: their reports apply, a lost report is recovered from Vapi, a live end and supervision ask Vapi.
 */
describe('a call keeps its platform across a change of VOICE_PROVIDER', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;

  /** Places a live call on Vapi (through the first process) and has Vapi answer it. */
  const placeLive = async (to: string) => {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from });
    expect(res.status).toBe(201);
    expect(res.body.data.platform).toBe('vapi');
    const id: string = res.body.data.id;
    const { vapiCallId } = await fake.createCallFor(id);
    await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
    await fake.status(vapiCallId, 'in-progress');
    return { id, vapiCallId };
  };

  /** Stops the service and starts it again on the same database and queues with `env` changed. */
  const restart = async (env: Record<string, string>) => {
    await t.app.close();
    const restarted = await t.startPeer({ VOICE_PROVIDER: 'simulator', ...env });
    fake.serviceUrl = restarted.baseUrl;
    const admin = new HttpClient(restarted.baseUrl, { authorization: `Bearer ${ADMIN_TOKEN}` });
    return { ...org, api: new HttpClient(restarted.baseUrl, { 'x-api-key': org.key }), admin };
  };

  /** What each test started, closed after it (the app before the fake it talks to). */
  let started: Array<{ close(): Promise<void> }> = [];
  const startVapi = async (extra?: Record<string, string>) => {
    ({ fake, t } = await startWithVapi(extra));
    started.push(fake, t);
  };
  afterEach(async () => {
    for (const s of started.reverse()) await s.close();
    started = [];
  });

  it('applies its report, recovers a lost one from Vapi and ends it live through Vapi', async () => {
    await startVapi({ VAPI_REPORT_GRACE_MS: '300' });
    org = await voiceOrg(t, 1000, fake);
    const reported = await placeLive('+14155550141');
    const lostReport = await placeLive('+14155550142');
    const ended = await placeLive('+14155550143');

    const after = await restart({ VAPI_REPORT_GRACE_MS: '300' });
    // A new number now defaults to the simulator; the calls already made stay on Vapi.
    const other = await after.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
      number: '+14155550149',
      providerId: 'pn-other',
    });
    expect(other.body.data.platform).toBe('simulator');

    await fake.end(reported.vapiCallId, TALKED);
    expect(await waitForCall(after, reported.id, finished)).toMatchObject({
      status: 'ended',
      endedReason: 'customer-ended-call',
      durationSeconds: 42,
      providerCost: 0.05,
      platform: 'vapi',
    });

    // Vapi says the call ended but its report never arrives: the service asks Vapi (GET /call/{id}).
    await fake.end(lostReport.vapiCallId, TALKED, { report: { drop: true } });
    expect(await waitForCall(after, lostReport.id, finished)).toMatchObject({
      status: 'ended',
      endedReason: 'customer-ended-call',
      durationSeconds: 42,
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/call/${lostReport.vapiCallId}`)).toBe(true);

    // Ending it live goes through Vapi's control URL, and Vapi's own report finishes it.
    expect((await after.api.post(`/api/v1/calls/${ended.id}/end`, {})).status).toBe(200);
    expect(await waitForCall(after, ended.id, finished)).toMatchObject({
      status: 'ended',
      endedReason: 'manually-canceled',
    });
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === `/control/${ended.vapiCallId}`)).toBe(true);
  }, 60_000);

  it('supervision asks Vapi about an overdue call, not the simulator', async () => {
    // The first process supervises nothing soon; the restarted one finds the call overdue at once.
    await startVapi();
    org = await voiceOrg(t, 1000, fake);
    const silent = await placeLive('+14155550144');
    // Vapi ended the call and every message about it was lost.
    const lost = { drop: true };
    await fake.end(
      silent.vapiCallId,
      { ...TALKED, endedReason: 'customer-did-not-answer', endedAt: TALKED.startedAt },
      { status: lost, report: lost },
    );

    const after = await restart({ CALL_MAX_DURATION_MS: '1000', CALL_SUPERVISION_GRACE_MS: '500' });
    expect(await waitForCall(after, silent.id, finished, 15_000)).toMatchObject({
      status: 'ended',
      endedReason: 'customer-did-not-answer',
      resultStatus: 'Not Answered',
      platform: 'vapi',
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/call/${silent.vapiCallId}`)).toBe(true);
  }, 60_000);

  it('a number takes a known platform only, and only one this service can reach', async () => {
    t = await startTestApp();
    started.push(t);
    const { id } = await createOrg(t);
    const assign = (platform: string) =>
      t.admin.post(`/admin/v1/organizations/${id}/phone-numbers`, { number: '+14155550145', platform });
    const unknown = await assign('twilio');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    // Vapi without its key and secret, Retell without its key: known, but not reachable from here.
    for (const platform of ['vapi', 'retell']) {
      const unreachable = await assign(platform);
      expect(unreachable.status).toBe(422);
      expect(unreachable.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^platform: /),
      });
    }
    expect((await assign('simulator')).body.data).toMatchObject({ number: '+14155550145', platform: 'simulator' });
  }, 60_000);

  it('start-up refuses numbers on a platform whose credentials were removed, naming both', async () => {
    await startVapi();
    org = await voiceOrg(t, 1000, fake);
    await t.app.close();
    await expect(
      t.startPeer({ VOICE_PROVIDER: 'simulator', VAPI_API_KEY: '', VAPI_WEBHOOK_SECRET: '' }),
    ).rejects.toThrow(
      '1 phone number(s) are on the vapi platform, whose credentials are not set (VAPI_API_KEY and VAPI_WEBHOOK_SECRET)',
    );
  }, 60_000);

  it('start-up refuses numbers on Retell once its key is removed, naming both', async () => {
    const retell = await FakeRetell.start();
    started.push(retell);
    t = await startTestApp({ env: retellEnv(retell.url) });
    started.push(t);
    await retellOrg(t, retell);
    await t.app.close();
    await expect(t.startPeer({ VOICE_PROVIDER: 'simulator', RETELL_API_KEY: '' })).rejects.toThrow(
      '1 phone number(s) are on the retell platform, whose credentials are not set (RETELL_API_KEY)',
    );
  }, 60_000);
});
