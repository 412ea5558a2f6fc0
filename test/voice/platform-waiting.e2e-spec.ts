import { Metrics } from '../../src/infra/metrics/metrics';
import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp } from '../support/test-app';
import { FakeVapi } from './fake-vapi';
import { VoiceOrg, startWithVapi, vapiLine, voiceOrg } from './voice-fixtures';

/** A metric's value in the app's exposition (0 when never recorded). */
async function metric(t: TestApp, series: string): Promise<number> {
  const line = (await t.app.get(Metrics).exposition()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** Every call of the list as the API shows it. */
async function callsOf(org: VoiceOrg, ids: string[]) {
  return Promise.all(ids.map(async (id) => (await org.api.get(`/api/v1/calls/${id}`)).body.data));
}

/** Polls until `done` holds for the calls (each poll a round of GETs; no fixed wait proves anything here). */
async function until(org: VoiceOrg, ids: string[], done: (calls: any[]) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let calls: any[] = [];
  while (Date.now() < deadline) {
    calls = await callsOf(org, ids);
    expect(calls.map((c) => c.status)).not.toContain('error');
    if (done(calls)) return calls;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the calls did not get there: ${JSON.stringify(calls.map((c) => [c.status, c.platformAttempts]))}`);
}

/** Ends a placed call as Vapi does when the customer hangs up. */
async function talkAndHangUp(fake: FakeVapi, vapiCallId: string) {
  await fake.status(vapiCallId, 'in-progress');
  await fake.end(vapiCallId, {
    endedReason: 'customer-ended-call',
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:00:20.000Z',
    artifact: { messages: [vapiLine('bot', 'Hello', 1735725601000, 1)] },
  });
}

/**
 * Waiting for the platform (docs/providers.md, "Waiting for the platform"): a call on a number without a fallback
 * is never failed because its platform is down; it waits, is tried again with backoff (skipped while the platform
 * cools down), and goes out once, when the platform returns; after an attempt that may have placed it, the
 * platform is searched for it before it is placed again.
 */
describe('calls wait for their platform when their number has no fallback', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;

  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({
      VAPI_MAX_RETRIES: '0',
      PLATFORM_FAILOVER_COOLDOWN_MS: '1000',
      PLATFORM_WAIT_RETRY_MS: '200',
    }));
    org = await voiceOrg(t, 1000, fake);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const place = async (to: string) => {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const postsOf = (id: string) => fake.createCalls().filter((r) => r.body?.assistant?.metadata?.callId === id);

  it('Vapi down (refused, then 500s): 5 calls wait, none fails or goes out meanwhile, each is placed once when it returns', async () => {
    await fake.down();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await place(`+1415555021${i}`));
    // Each call was tried, found Vapi unreachable and went back to wait (`new`), its attempt kept.
    const waiting = await until(org, ids, (calls) =>
      calls.every((c) => c.status === 'new' && c.platformAttempts.length > 0),
    );
    for (const c of waiting) {
      expect(c.apiCallId).toBeNull();
      expect(c.platformAttempts[0]).toMatchObject({
        platform: 'vapi',
        error: expect.stringMatching(/^vapi-unavailable/),
      });
    }
    expect(fake.createCalls()).toHaveLength(0);

    // Vapi is back, answering its next two POST /call with a 500 (placing nothing).
    await fake.up();
    fake.failNext({ status: 500, message: 'Internal Server Error' }, { status: 500, message: 'Internal Server Error' });
    for (const id of ids) {
      const { vapiCallId } = await fake.createCallFor(id, 60_000);
      await waitForCall(org, id, (c) => c.apiCallId === vapiCallId);
      await talkAndHangUp(fake, vapiCallId);
    }
    const ended = await until(org, ids, (calls) => calls.every(finished));
    expect(ended.map((c) => c.status)).toEqual(['ended', 'ended', 'ended', 'ended', 'ended']);
    for (const id of ids) {
      // Placed exactly once: one accepted POST /call per call, whatever failed before it.
      expect(postsOf(id).filter((r) => r.accepted)).toHaveLength(1);
      expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);
    }
    const refused = fake.createCalls().filter((r) => !r.accepted);
    expect(refused).toHaveLength(2);
    // The calls the 500s answered were looked for on Vapi (GET /call) before they were placed again.
    expect(
      fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/call?')).length,
    ).toBeGreaterThanOrEqual(2);
    expect(await metric(t, 'vc_platform_placements_total{platform="vapi",outcome="placed"}')).toBe(5);
    expect(
      await metric(t, 'vc_platform_placements_total{platform="vapi",outcome="unavailable"}'),
    ).toBeGreaterThanOrEqual(7);
    expect(await metric(t, 'vc_voice_platform_deferred_total')).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it('a 500 after Vapi did place the call: the call found by GET /call is the one, never placed twice', async () => {
    fake.failNext({ status: 500, message: 'Internal Server Error', placedAnyway: true });
    const id = await place('+14155550220');
    const placed = await waitForCall(org, id, (c) => c.apiCallId !== null && c.status === 'processing', 30_000);
    const [only] = postsOf(id);
    expect(postsOf(id)).toHaveLength(1);
    expect(placed.apiCallId).toBe(only.placedAnyway);
    expect(placed.platformAttempts).toEqual([
      { platform: 'vapi', at: expect.any(String), error: 'vapi-unavailable: 500 Internal Server Error' },
    ]);
    await talkAndHangUp(fake, placed.apiCallId);
    expect(await waitForCall(org, id, finished)).toMatchObject({ status: 'ended', endedReason: 'customer-ended-call' });
    expect(postsOf(id)).toHaveLength(1);
  });
});

describe('a call that waited its attempts out', () => {
  let fake: FakeVapi;
  let t: TestApp;

  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({
      VAPI_MAX_RETRIES: '0',
      PLATFORM_WAIT_RETRY_MS: '100',
      PLATFORM_WAIT_MAX_ATTEMPTS: '3',
    }));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('ends vapi-unavailable after PLATFORM_WAIT_MAX_ATTEMPTS attempts, with call.failed, its attempts kept', async () => {
    const org = await voiceOrg(t, 1000, fake);
    await fake.down();
    const res = await org.api.post('/api/v1/calls', { to: '+14155550230', from: org.from });
    const id: string = res.body.data.id;
    const call = await waitForCall(org, id, finished, 30_000);
    expect(call).toMatchObject({ status: 'error', endedReason: expect.stringMatching(/^vapi-unavailable/) });
    // Three attempts: the first two kept as the call waited, the third ended it.
    expect(call.platformAttempts).toHaveLength(2);
    expect((await eventsOf(t, id)).map((e) => e.type)).toEqual(['call.failed']);
    const { rows } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [id]);
    expect(rows.map((r) => r.status)).not.toContain('reserved');
  });
});
