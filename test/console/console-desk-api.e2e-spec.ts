import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { createAccount, userWrites } from '../messaging/messaging-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The admin routes behind the console's operations desk: each answers as its public route does, in the world the
 * console's switch names, and another organization's id is 404.
 */
describe('console API: the operations desk', () => {
  let t: TestApp;
  let org: CallsOrg;
  let other: CallsOrg;

  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '10', SIMULATOR_CALL_MS: '50' } });
    [org, other] = await Promise.all([callingOrg(t), callingOrg(t)]);
  });
  afterAll(() => t?.close());

  const orgPath = (o: CallsOrg, rest: string) => `/admin/v1/organizations/${o.id}${rest}`;

  it('hands off, closes and reopens a conversation as the public routes do; a wrong move is 422', async () => {
    const account = await createAccount(t, org.id, { phoneNumberId: 'pn-desk-moves' });
    const id = await userWrites(t, account.id, '+14155558811');
    const move = (o: CallsOrg, m: string, query = '') =>
      t.admin.post(orgPath(o, `/messaging/conversations/${id}/${m}${query}`), {});

    const handedOff = await move(org, 'hand-off');
    expect(handedOff.status).toBe(200);
    expect(handedOff.body.data).toMatchObject({ id, status: 'handed_off' });
    expect((await org.api.get(`/api/v1/messaging/conversations/${id}`)).body.data.status).toBe('handed_off');

    const again = await move(org, 'hand-off');
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_STATE');

    expect((await move(org, 'close')).body.data.status).toBe('closed');
    expect((await move(org, 'reopen')).body.data.status).toBe('active');

    const filtered = await t.admin.get(orgPath(org, '/messaging/conversations?status=active'));
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await t.admin.get(orgPath(org, '/messaging/conversations?status=closed'))).body.data).toEqual([]);

    // Another organization, or the test world of the same one, does not see it.
    expect((await move(other, 'close')).status).toBe(404);
    expect((await move(org, 'close', '?livemode=false')).status).toBe(404);
  });

  it('creates contacts in bulk with one result per row, replays under the same Idempotency-Key', async () => {
    const body = {
      contacts: [
        { title: 'Ann Lee', phone: '+14155557701' },
        { title: 'Bo Chan', phone: 'not a phone' },
        { title: 'Ann again', phone: '+14155557701' },
      ],
    };
    const headers = { headers: { 'idempotency-key': 'desk-import-1' } };
    const first = await t.admin.post(orgPath(org, '/contacts/batch'), body, headers);
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
      [0, 'created'],
      [1, 'refused'],
      [2, 'exists'],
    ]);
    expect(first.body.data[1].error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(first.body.data[2].id).toBe(first.body.data[0].id);

    const replay = await t.admin.post(orgPath(org, '/contacts/batch'), body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);

    const reused = await t.admin.post(orgPath(org, '/contacts/batch'), { contacts: [body.contacts[0]] }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    // The test world is its own: the same key and body there create the contact afresh.
    const test = await t.admin.post(orgPath(org, '/contacts/batch?livemode=false'), body, headers);
    expect(test.body.data.map((r: { status: string }) => r.status)).toEqual(['created', 'refused', 'exists']);
    expect(test.headers.get('idempotent-replayed')).toBeNull();

    // 1,000 rows hold more JSON members than an ordinary body may: the bulk bound applies here as on the API.
    const full = Array.from({ length: 1000 }, (_, i) => ({
      title: `Bulk ${i}`,
      phone: `+1415${String(6_000_000 + i)}`,
      tags: ['bulk'],
    }));
    const thousand = await t.admin.post(orgPath(org, '/contacts/batch'), { contacts: full });
    expect(thousand.status).toBe(200);
    expect(thousand.body.data.filter((r: { status: string }) => r.status === 'created')).toHaveLength(1000);
    const tooMany = await t.admin.post(orgPath(org, '/contacts/batch'), { contacts: [...full, full[0]] });
    expect(tooMany.status).toBe(400);

    const empty = await t.admin.post(orgPath(org, '/contacts/batch'), { contacts: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('labels an ended call and reports detection against the labels; another organization is 404', async () => {
    const placed = await org.api.post('/api/v1/calls', { to: '+14155550107', from: org.from });
    const callId = placed.body.data.id as string;
    await waitForCall(org, callId, finished);

    const label = await t.admin.put(orgPath(org, `/calls/${callId}/label`), { answeredBy: 'voicemail', note: 'beep' });
    expect(label.status).toBe(200);
    expect(label.body.data).toMatchObject({ callId, answeredBy: 'voicemail', note: 'beep' });
    expect((await t.admin.get(orgPath(org, `/calls/${callId}/label`))).body.data.answeredBy).toBe('voicemail');
    expect((await org.api.get(`/api/v1/calls/${callId}/label`)).body.data.answeredBy).toBe('voicemail');

    const bad = await t.admin.put(orgPath(org, `/calls/${callId}/label`), { answeredBy: 'robot' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect((await t.admin.put(orgPath(other, `/calls/${callId}/label`), { answeredBy: 'robot' })).status).toBe(404);

    const report = await t.admin.get(orgPath(org, '/reports/answer-detection?platform=simulator'));
    expect(report.status).toBe(200);
    expect(report.body).toEqual((await org.api.get('/api/v1/reports/answer-detection?platform=simulator')).body);
    expect(report.body.data.platforms[0]).toMatchObject({ platform: 'simulator', labelled: 1, voicemailPrecision: 1 });
    expect((await t.admin.get(orgPath(org, '/reports/answer-detection?platform=nope'))).status).toBe(400);
  });

  it("answers a number's health as the public route does; another organization's number is 404", async () => {
    const numberId = (await org.api.get('/api/v1/phone-numbers')).body.data[0].id as string;
    const health = await t.admin.get(orgPath(org, `/phone-numbers/${numberId}/health?days=30`));
    expect(health.status).toBe(200);
    expect(health.body).toEqual((await org.api.get(`/api/v1/phone-numbers/${numberId}/health?days=30`)).body);
    expect(health.body.data.days.length).toBeGreaterThan(0);
    expect((await t.admin.get(orgPath(other, `/phone-numbers/${numberId}/health`))).status).toBe(404);
    expect((await t.admin.get(orgPath(org, `/phone-numbers/${numberId}/health?days=91`))).status).toBe(400);
  });
});
