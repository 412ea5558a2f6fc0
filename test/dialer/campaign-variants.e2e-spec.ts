import { twoProportionPValue } from '../../src/modules/campaigns/campaign-variants';
import { CallsOrg, callingOrg } from '../calls/call-fixtures';
import { createOrg } from '../support/factory';
import { TestApp, startTestApp } from '../support/test-app';
import { allEntries, rows, startCampaign, waitForCampaign } from './campaign-fixtures';

/**
 * A/B campaigns of case versions on the simulator, over HTTP: the assignment and the z-test are unit-tested
 * (src/modules/campaigns/campaign-variants.spec.ts); this holds the wiring, entry to call to report.
 */
describe('dialer: A/B variants of case versions', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
    const kase = await org.api.post('/api/v1/cases', {
      title: 'Reminder',
      prompt: 'Remind.',
      firstMessage: 'Hello from version one',
      analysis: { summary: false, successCriteria: 'The person answered' },
    });
    caseId = kase.body.data.id;
    const v2 = await org.api.patch(`/api/v1/cases/${caseId}`, { firstMessage: 'Hello from version two' });
    expect(v2.body.data.version).toBe(2);
  });
  afterAll(() => t?.close());

  it('a 40-entry campaign splits its entries by weight, each call uses its entry’s version, the report adds up', async () => {
    const variants = [
      { caseVersion: 1, weight: 50 },
      { caseVersion: 2, weight: 50 },
    ];
    // Digits 0-6 answer, 7 reaches voicemail, 8-9 are not answered (the simulator's outcomes).
    const id = await startCampaign(org, { caseId, variants, audience: { rows: rows('+1415559', 40) } });
    const done = await waitForCampaign(org, id, (c) => c.status === 'completed', 120_000);
    expect(done.variants).toEqual(variants);

    const entries = await allEntries(org, id);
    expect(entries).toHaveLength(40);
    const byVersion = (v: number) => entries.filter((e) => e.caseVersion === v);
    expect(byVersion(1).length + byVersion(2).length).toBe(40);
    // Both variants get entries (at 50/50, 40 entries all on one side has odds of 2 in 10^12).
    expect(byVersion(1).length).toBeGreaterThan(0);
    expect(byVersion(2).length).toBeGreaterThan(0);

    const calls: any[] = [];
    for (const entry of entries) {
      expect(entry.attempts).toHaveLength(1);
      calls.push((await org.api.get(`/api/v1/calls/${entry.attempts[0].callId}`)).body.data);
    }
    const entryOf = new Map(entries.map((e) => [e.attempts[0].callId, e]));
    for (const call of calls) {
      expect(call.caseVersion).toBe(entryOf.get(call.id).caseVersion);
      expect(call.firstMessage).toBe(call.caseVersion === 1 ? 'Hello from version one' : 'Hello from version two');
    }

    const report = await org.api.get(`/api/v1/campaigns/${id}/variants`);
    expect(report.status).toBe(200);
    const expected = variants.map((v) => {
      const mine = calls.filter((c) => c.caseVersion === v.caseVersion);
      return {
        ...v,
        entries: byVersion(v.caseVersion).length,
        calls: mine.length,
        answered: mine.filter((c) => c.answeredBy === 'human').length,
        voicemail: mine.filter((c) => c.answeredBy === 'voicemail').length,
        successTrue: mine.filter((c) => c.analysis?.success === true).length,
        successFalse: mine.filter((c) => c.analysis?.success === false).length,
        talkMinutes: expect.closeTo(mine.reduce((s, c) => s + (c.durationSeconds ?? 0), 0) / 60, 6),
        providerCostUsd: expect.closeTo(
          mine.reduce((s, c) => s + (c.providerCost ?? 0), 0),
          6,
        ),
      };
    });
    expect(report.body.data.variants).toEqual(expected);
    // The simulator's analysis: success when a person answered, so the judged calls are the answered ones.
    expect(expected.reduce((s, v) => s + v.successTrue, 0)).toBe(calls.filter((c) => c.answeredBy === 'human').length);
    const [a, b] = report.body.data.variants;
    const p = twoProportionPValue(
      a.successTrue,
      a.successTrue + a.successFalse,
      b.successTrue,
      b.successTrue + b.successFalse,
    );
    expect(report.body.data.pValue).toBe(p);
  }, 150_000);

  it('refuses variants without a case, with a version the case lacks, out of bounds or twice the same (400)', async () => {
    const base = { name: 'AB', from: org.from, audience: { rows: rows('+1415559', 1) } };
    const two = [
      { caseVersion: 1, weight: 50 },
      { caseVersion: 2, weight: 50 },
    ];
    for (const body of [
      { ...base, variants: two },
      {
        ...base,
        caseId,
        variants: [
          { caseVersion: 1, weight: 50 },
          { caseVersion: 3, weight: 50 },
        ],
      },
      { ...base, caseId, variants: [{ caseVersion: 1, weight: 50 }] },
      { ...base, caseId, variants: [...two, { caseVersion: 1, weight: 1 }] },
      {
        ...base,
        caseId,
        variants: [
          { caseVersion: 1, weight: 0 },
          { caseVersion: 2, weight: 1 },
        ],
      },
      {
        ...base,
        caseId,
        variants: [
          { caseVersion: 1, weight: 101 },
          { caseVersion: 2, weight: 1 },
        ],
      },
      { ...base, caseId, variants: Array.from({ length: 5 }, () => ({ caseVersion: 1, weight: 1 })) },
    ]) {
      const res = await org.api.post('/api/v1/campaigns', body);
      expect({ body: body.variants, status: res.status, code: res.body.error?.code }).toEqual({
        body: body.variants,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    const most = await org.api.post('/api/v1/campaigns', {
      ...base,
      caseId,
      variants: [
        { caseVersion: 1, weight: 100 },
        { caseVersion: 2, weight: 1 },
      ],
    });
    expect(most.status).toBe(201);
  });

  it('a campaign without variants reports none; another organization’s campaign is 404', async () => {
    const created = await org.api.post('/api/v1/campaigns', {
      name: 'Plain',
      from: org.from,
      caseId,
      audience: { rows: rows('+1415559', 1) },
    });
    expect(created.body.data.variants).toBeNull();
    const report = await org.api.get(`/api/v1/campaigns/${created.body.data.id}/variants`);
    expect(report.body.data).toEqual({ variants: [], pValue: null });
    const other = await createOrg(t);
    expect((await other.api.get(`/api/v1/campaigns/${created.body.data.id}/variants`)).status).toBe(404);
  });
});
