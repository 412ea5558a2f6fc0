import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { allEntries, startCampaign, waitForCampaign } from '../dialer/campaign-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Labels and the answer-detection report (docs/answer-detection.md), over simulator calls whose outcome the
 * number's last digit fixes: 0-6 a person (`human`), 7 a voicemail, 8 nobody (no `answeredBy`).
 */
describe('call labels and the answer-detection report', () => {
  let t: TestApp;
  let org: CallsOrg;
  let other: CallsOrg;
  const calls: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '20', SIMULATOR_CALL_MS: '100' } });
    [org, other] = await Promise.all([callingOrg(t), callingOrg(t)]);
    const place = async (name: string, to: string) => {
      const res = await org.api.post('/api/v1/calls', { to, from: org.from });
      expect(res.status).toBe(201);
      calls[name] = res.body.data.id;
    };
    await Promise.all([
      place('h1', '+14155550100'),
      place('h2', '+14155550101'),
      place('h3', '+14155550102'),
      place('v1', '+14155550107'),
      place('v2', '+14155550117'),
      place('v3', '+14155550127'),
      place('n1', '+14155550108'),
    ]);
    await Promise.all(Object.values(calls).map((id) => waitForCall(org, id, finished)));
  });
  afterAll(() => t?.close());

  const label = (o: Pick<CallsOrg, 'api'>, id: string, body: Record<string, unknown>) =>
    o.api.put(`/api/v1/calls/${id}/label`, body);

  it('a label is recorded, read back, and replaced by a second PUT', async () => {
    const first = await label(org, calls.h1, { answeredBy: 'voicemail', note: 'sounded like a greeting' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      callId: calls.h1,
      answeredBy: 'voicemail',
      note: 'sounded like a greeting',
    });
    const second = await label(org, calls.h1, { answeredBy: 'human' });
    expect(second.status).toBe(200);
    const read = await org.api.get(`/api/v1/calls/${calls.h1}/label`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ callId: calls.h1, answeredBy: 'human', note: null });
  });

  it('the matrix, precision and recall equal the hand-computed values', async () => {
    // Detected (by the simulator) -> labelled by a person:
    //   human h1, h2 -> human; human h3 -> voicemail (a miss)
    //   voicemail v1, v2 -> voicemail; voicemail v3 -> screener (a false alarm)
    //   nothing n1 -> voicemail (no verdict counts as unknown: a miss)
    const labels: Array<[string, string]> = [
      ['h1', 'human'],
      ['h2', 'human'],
      ['h3', 'voicemail'],
      ['v1', 'voicemail'],
      ['v2', 'voicemail'],
      ['v3', 'screener'],
      ['n1', 'voicemail'],
    ];
    for (const [name, answeredBy] of labels) expect((await label(org, calls[name], { answeredBy })).status).toBe(200);

    const res = await org.api.get('/api/v1/reports/answer-detection');
    expect(res.status).toBe(200);
    expect(res.body.data.platforms).toEqual([
      {
        platform: 'simulator',
        labelled: 7,
        matrix: {
          human: { human: 2, voicemail: 0, screener: 0, unknown: 0 },
          voicemail: { human: 1, voicemail: 2, screener: 0, unknown: 1 },
          screener: { human: 0, voicemail: 1, screener: 0, unknown: 0 },
          unknown: { human: 0, voicemail: 0, screener: 0, unknown: 0 },
        },
        // 2 labelled voicemail among the 3 detected voicemail; 2 detected among the 4 labelled voicemail.
        voicemailPrecision: 2 / 3,
        voicemailRecall: 2 / 4,
      },
    ]);
  });

  it('filters by creation time, platform and campaign', async () => {
    const before = new Date(Date.now() - 3_600_000).toISOString();
    const none = await org.api.get(`/api/v1/reports/answer-detection?to=${encodeURIComponent(before)}`);
    expect(none.body.data.platforms).toEqual([]);
    const since = await org.api.get(`/api/v1/reports/answer-detection?from=${encodeURIComponent(before)}`);
    expect(since.body.data.platforms[0].labelled).toBe(7);
    expect((await org.api.get('/api/v1/reports/answer-detection?platform=vapi')).body.data.platforms).toEqual([]);
    const sim = await org.api.get('/api/v1/reports/answer-detection?platform=simulator');
    expect(sim.body.data.platforms[0].labelled).toBe(7);

    const campaignId = await startCampaign(org, {
      audience: { rows: [{ to: '+14155550137' }, { to: '+14155550103' }] },
    });
    await waitForCampaign(org, campaignId, (c) => c.status === 'completed');
    for (const entry of await allEntries(org, campaignId)) {
      expect((await label(org, entry.attempts[0].callId, { answeredBy: 'voicemail' })).status).toBe(200);
    }
    const ofCampaign = await org.api.get(`/api/v1/reports/answer-detection?campaignId=${campaignId}`);
    expect(ofCampaign.body.data.platforms).toEqual([
      expect.objectContaining({
        labelled: 2,
        matrix: expect.objectContaining({
          voicemail: { human: 1, voicemail: 1, screener: 0, unknown: 0 },
        }),
        voicemailPrecision: 1,
        voicemailRecall: 0.5,
      }),
    ]);
    expect((await org.api.get('/api/v1/reports/answer-detection')).body.data.platforms[0].labelled).toBe(9);
  });

  it("another organization's call is 404 to label and to read; its report holds none of them", async () => {
    expect((await label(other, calls.v1, { answeredBy: 'human' })).status).toBe(404);
    expect((await other.api.get(`/api/v1/calls/${calls.v1}/label`)).status).toBe(404);
    expect((await other.api.get('/api/v1/reports/answer-detection')).body.data.platforms).toEqual([]);
    expect((await org.api.get(`/api/v1/calls/${calls.v1}/label`)).body.data.answeredBy).toBe('voicemail');
  });

  it('a call not ended is 422 INVALID_STATE; an unlabelled call reads 404', async () => {
    const scheduledAt = new Date(Date.now() + 86_400_000).toISOString();
    const later = await org.api.post('/api/v1/calls', { to: '+14155550104', from: org.from, scheduledAt });
    const res = await label(org, later.body.data.id, { answeredBy: 'human' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_STATE');
    expect((await org.api.get(`/api/v1/calls/${later.body.data.id}/label`)).status).toBe(404);
  });

  it('bounds: note of 1,000 characters accepted, 1,001 refused; unknown outcomes and filters are 400', async () => {
    expect((await label(org, calls.h2, { answeredBy: 'human', note: 'x'.repeat(1000) })).status).toBe(200);
    const long = await label(org, calls.h2, { answeredBy: 'human', note: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain('note');
    const robot = await label(org, calls.h2, { answeredBy: 'robot' });
    expect(robot.status).toBe(400);
    expect(robot.body.error.message).toContain('answeredBy');
    for (const query of ['platform=twilio', 'from=yesterday', 'campaignId=nope', 'to=0000-01-01T00:00:00Z']) {
      const bad = await org.api.get(`/api/v1/reports/answer-detection?${query}`);
      expect({ query, status: bad.status, code: bad.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('scopes: labelling needs calls:write, reading needs calls:read', async () => {
    const reader = await org.keyWith(['calls:read']);
    expect((await label(reader, calls.h2, { answeredBy: 'human' })).status).toBe(403);
    expect((await reader.api.get(`/api/v1/calls/${calls.h2}/label`)).status).toBe(200);
    expect((await reader.api.get('/api/v1/reports/answer-detection')).status).toBe(200);
    const none = await org.keyWith(['contacts:read']);
    expect((await none.api.get('/api/v1/reports/answer-detection')).status).toBe(403);
  });
});
