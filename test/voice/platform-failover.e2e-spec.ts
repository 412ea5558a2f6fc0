import { Metrics } from '../../src/infra/metrics/metrics';
import { grantTrial, finished, waitForCall } from '../calls/call-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { FakeRetell, RETELL_KEY } from './fake-retell';
import { FakeVapi } from './fake-vapi';
import type { VoiceOrg } from './voice-fixtures';
import { vapiEnv } from './voice-fixtures';

/** A metric's value in the app's exposition (0 when never recorded). */
async function metric(t: TestApp, series: string): Promise<number> {
  const line = (await t.app.get(Metrics).exposition()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/**
 * Failover (docs/providers.md, "Failover"): a number on Vapi with the same number imported on Retell as its
 * fallback. While Vapi is down (connections refused, then 500s), every call goes out on Retell; after 5 failures
 * in a row Vapi is skipped for the cooldown, so the outage costs 5 attempts, not one per call; none ends `error`.
 */
describe('failover between voice platforms', () => {
  let vapi: FakeVapi;
  let retell: FakeRetell;
  let t: TestApp;
  let org: VoiceOrg;

  beforeAll(async () => {
    vapi = await FakeVapi.start();
    retell = await FakeRetell.start();
    t = await startTestApp({
      env: vapiEnv(vapi.url, {
        VAPI_MAX_RETRIES: '0',
        RETELL_API_KEY: RETELL_KEY,
        RETELL_BASE_URL: retell.url,
        PLATFORM_FAILOVER_COOLDOWN_MS: '600000',
      }),
    });
    vapi.serviceUrl = t.baseUrl;
    retell.serviceUrl = t.baseUrl;
    const created = await createOrg(t);
    const from = '+14155559100';
    const vapiId = vapi.addNumber(from);
    retell.addNumber(from);
    const res = await t.admin.post(`/admin/v1/organizations/${created.id}/phone-numbers`, {
      number: from,
      platform: 'vapi',
      fallback: { platform: 'retell', providerId: from },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      platform: 'vapi',
      providerId: vapiId,
      fallback: { platform: 'retell', providerId: from },
    });
    await grantTrial(t, created.id, 1000);
    // Room for all 20 calls live at once (the organization's default is 10).
    expect(
      (await t.admin.post(`/admin/v1/organizations/${created.id}/limits`, { maxConcurrentCalls: 30 })).status,
    ).toBe(200);
    org = { ...created, from, phoneNumberId: vapiId };
  });
  afterAll(async () => {
    await t?.close();
    await vapi?.close();
    await retell?.close();
  });

  it('refuses a fallback on the same platform or one not configured here (422 naming fallback.platform)', async () => {
    for (const fallback of [
      { platform: 'vapi', providerId: 'x' },
      { platform: 'simulator', providerId: 'x' },
    ]) {
      const res = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
        number: '+14155559101',
        platform: 'vapi',
        providerId: 'pn-1',
        fallback,
      });
      if (fallback.platform === 'vapi') {
        expect(res.status).toBe(422);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'fallback.platform' })]);
      } else expect(res.status).toBe(201);
    }
    const unknown = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
      number: '+14155559102',
      fallback: { platform: 'nowhere', providerId: 'x' },
    });
    expect(unknown.status).toBe(400);
  });

  it("sets and removes a number's fallback (admin PATCH); another organization's number is 404", async () => {
    const created = await t.admin.post(`/admin/v1/organizations/${org.id}/phone-numbers`, {
      number: '+14155559103',
      platform: 'vapi',
      providerId: 'pn-3',
    });
    expect(created.body.data.fallback).toBeNull();
    const path = `/admin/v1/organizations/${org.id}/phone-numbers/${created.body.data.id}`;
    const fallback = { platform: 'retell', providerId: '+14155559103' };
    expect((await t.admin.patch(path, { fallback })).body.data).toMatchObject({ platform: 'vapi', fallback });
    const listed = await t.admin.get(`/admin/v1/organizations/${org.id}/phone-numbers`);
    expect(listed.body.data.find((n: { id: string }) => n.id === created.body.data.id).fallback).toEqual(fallback);
    const same = await t.admin.patch(path, { fallback: { platform: 'vapi', providerId: 'x' } });
    expect(same.status).toBe(422);
    expect((await t.admin.patch(path, {})).status).toBe(400);
    expect((await t.admin.patch(path, { fallback: null })).body.data.fallback).toBeNull();
    const other = await createOrg(t);
    const elsewhere = await t.admin.patch(`/admin/v1/organizations/${other.id}/phone-numbers/${created.body.data.id}`, {
      fallback,
    });
    expect(elsewhere.status).toBe(404);
  });

  it('places all 20 calls on Retell while Vapi is down; Vapi sees 5 attempts, then is skipped', async () => {
    await vapi.down();
    const place = async (i: number) => {
      const res = await org.api.post('/api/v1/calls', {
        to: `+141555591${String(i).padStart(2, '0')}`,
        from: org.from,
      });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    // Five one after another: connections refused for three, then Vapi answers 500 twice.
    const first: string[] = [];
    for (let i = 0; i < 5; i++) {
      if (i === 3) {
        await vapi.up();
        vapi.failNext(
          { status: 500, message: 'Internal Server Error' },
          { status: 500, message: 'Internal Server Error' },
        );
      }
      const id = await place(i);
      await retell.createCallFor(id);
      first.push(id);
    }
    const attemptsOnVapi = vapi.createCalls().length;
    expect(attemptsOnVapi).toBe(2);
    // Vapi has failed 5 placements in a row: it cools down; the next 15 go straight to Retell.
    const rest = await Promise.all(Array.from({ length: 15 }, (_, i) => place(i + 5)));
    for (const id of rest) await retell.createCallFor(id, 20_000);
    expect(vapi.createCalls().length).toBe(attemptsOnVapi);

    const ids = [...first, ...rest];
    for (const id of ids) {
      const call = (await org.api.get(`/api/v1/calls/${id}`)).body.data;
      expect(call).toMatchObject({ platform: 'retell', status: 'processing' });
      expect(call.platformAttempts).toEqual([
        expect.objectContaining({ platform: 'vapi', at: expect.any(String), error: expect.any(String) }),
      ]);
    }
    const skipped = (await org.api.get(`/api/v1/calls/${rest[0]}`)).body.data.platformAttempts[0];
    expect(skipped.error).toMatch(/^skipped/);
    const refused = (await org.api.get(`/api/v1/calls/${first[0]}`)).body.data.platformAttempts[0];
    expect(refused.error).toMatch(/^vapi-unavailable/);
    expect(await metric(t, 'vc_platform_failovers_total{from="vapi",to="retell"}')).toBe(20);
    expect(await metric(t, 'vc_platform_placements_total{platform="retell",outcome="placed"}')).toBe(20);
    expect(await metric(t, 'vc_platform_placements_total{platform="vapi",outcome="unavailable"}')).toBe(5);

    for (const id of ids.slice(0, 3)) {
      await retell.answerHuman((await retell.createCallFor(id)).retellCallId);
      expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', platform: 'retell' });
    }
    const health = await t.db.query('SELECT consecutive_failures FROM platform_health WHERE platform = $1', ['vapi']);
    expect(health.rows).toEqual([{ consecutive_failures: 5 }]);
  });

  it('never fails over a call Vapi refuses (a 4xx about the call): it ends in error', async () => {
    await t.db.query('DELETE FROM platform_health');
    vapi.failNext({ status: 400, message: 'customer.number must be a valid phone number' });
    const res = await org.api.post('/api/v1/calls', { to: '+14155559199', from: org.from });
    expect(await waitForCall(org, res.body.data.id, finished)).toMatchObject({
      status: 'error',
      platform: 'vapi',
      platformAttempts: [],
      endedReason: expect.stringMatching(/^vapi-rejected: 400/),
    });
  });
});
