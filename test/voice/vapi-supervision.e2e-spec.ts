import type { TestApp } from '../support/test-app';
import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import type { FakeVapi } from './fake-vapi';
import { VoiceOrg, ledgerRowsOf, startWithVapi, voiceOrg } from './voice-fixtures';

/** Supervision ticks every 5 s; calls are overdue 1.5 s after dispatch (CALL_MAX_DURATION_MS + grace). */
const RECONCILED_WITHIN_MS = 15_000;

describe('call supervision: calls whose platform goes silent are reconciled', () => {
  let fake: FakeVapi;
  let t: TestApp;
  let org: VoiceOrg;
  beforeAll(async () => {
    ({ fake, t } = await startWithVapi({ CALL_MAX_DURATION_MS: '1000', CALL_SUPERVISION_GRACE_MS: '500' }));
    org = await voiceOrg(t, 1000, fake);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const place = async (to: string) => {
    const res = await org.api.post('/api/v1/calls', { to, from: org.from });
    const { vapiCallId } = await fake.createCallFor(res.body.data.id);
    await waitForCall(org, res.body.data.id, (c) => c.apiCallId === vapiCallId);
    return { id: res.body.data.id as string, vapiCallId };
  };

  it('asks Vapi (GET /call/{id}) and applies its ended call; or ends a call Vapi does not know in error', async () => {
    const known = await place('+14155550131');
    const unknown = await place('+14155550132');
    // The platform never sends an end-of-call-report for either; it ended one call and forgot the other.
    await fake.status(known.vapiCallId, 'in-progress');
    const lost = { drop: true };
    await fake.end(
      known.vapiCallId,
      {
        endedReason: 'customer-did-not-answer',
        startedAt: '2025-01-01T10:00:00.000Z',
        endedAt: '2025-01-01T10:00:00.000Z',
        artifact: { messages: [] },
      },
      { status: lost, report: lost },
    );
    fake.calls.delete(unknown.vapiCallId);

    const reconciled = await waitForCall(org, known.id, finished, RECONCILED_WITHIN_MS);
    expect(reconciled).toMatchObject({
      status: 'ended',
      endedReason: 'customer-did-not-answer',
      resultStatus: 'Not Answered',
      durationSeconds: 0,
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/call/${known.vapiCallId}`)).toBe(true);
    expect((await eventsOf(t, known.id)).map((e) => e.type)).toEqual(['call.started', 'call.ended']);

    const timedOut = await waitForCall(org, unknown.id, finished, RECONCILED_WITHIN_MS);
    expect(timedOut).toMatchObject({ status: 'error', endedReason: 'supervision-timeout', durationSeconds: null });
    expect((await eventsOf(t, unknown.id)).map((e) => e.type)).toEqual(['call.started', 'call.failed']);
    // The reservation is released: nothing billed, no minute left reserved.
    const { rows } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [unknown.id]);
    expect(rows.map((r) => r.status)).not.toContain('reserved');
    expect((await ledgerRowsOf(t, unknown.id)).every((r) => r.amount_mins === 0)).toBe(true);
  }, 40_000);
});
