import { CallsOrg, callingOrg, finished, waitForCall } from '../calls/call-fixtures';
import { OutboxRow, bodyOf } from '../support/event-bodies';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Number health (docs/number-health.md) over simulator calls: last digit 0 a person answers, 8 nobody does. A
 * number's figures are counted as its calls end; its status compares the last 50 calls with its 30-day rate.
 */
describe('number health', () => {
  let t: TestApp;
  let org: CallsOrg;
  let numberId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SIMULATOR_RING_MS: '10', SIMULATOR_CALL_MS: '50' } });
    org = await callingOrg(t);
    numberId = (await org.api.get('/api/v1/phone-numbers')).body.data[0].id;
  });
  afterAll(() => t?.close());

  /** Places `count` calls to distinct numbers ending in `digit`, in batches, and waits until all have ended. */
  async function placeAndFinish(prefix: string, count: number, digit: number): Promise<void> {
    for (let start = 0; start < count; start += 10) {
      const ids = await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, async (_, i) => {
          const to = `${prefix}${String(start + i).padStart(3, '0')}${digit}`;
          const res = await org.api.post('/api/v1/calls', { to, from: org.from });
          expect(res.status).toBe(201);
          return res.body.data.id as string;
        }),
      );
      await Promise.all(ids.map((id) => waitForCall(org, id, finished)));
    }
  }

  const healthEvents = async (): Promise<OutboxRow[]> =>
    (
      await t.db.query<OutboxRow>(
        `SELECT type, organization_id, livemode, data FROM outbox_events
          WHERE organization_id = $1 AND type = 'phone_number.health_changed' ORDER BY occurred_at, id`,
        [org.id],
      )
    ).rows;

  it('a number pushed to degraded by its last 50 calls fires phone_number.health_changed once per move', async () => {
    // 50 answered calls: a 100 % baseline, and the recent window full of answers.
    await placeAndFinish('+1415555', 50, 0);
    expect((await org.api.get(`/api/v1/phone-numbers/${numberId}/health`)).body.data.status).toBe('healthy');
    expect(await healthEvents()).toEqual([]);

    // Then 50 nobody answers. After k of them the window holds 50 - k answers against a 50 / (50 + k) baseline:
    // watch from k = 26 (24/50 < 0.75 x 50/76), degraded from k = 36 (14/50 < 0.5 x 50/86), and it stays there.
    await placeAndFinish('+1415556', 50, 8);

    const events = await healthEvents();
    expect(events.map((e) => [e.data.previousStatus, e.data.status])).toEqual([
      ['healthy', 'watch'],
      ['watch', 'degraded'],
    ]);
    const body = await bodyOf(t, events[1]);
    expect(body).toMatchObject({
      id: numberId,
      number: org.from,
      health: { number: org.from, status: 'degraded', previousStatus: 'watch' },
    });

    const res = await org.api.get(`/api/v1/phone-numbers/${numberId}/health`);
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.data).toEqual({
      number: org.from,
      status: 'degraded',
      days: [
        {
          date: today,
          placed: 100,
          human: 50,
          voicemail: 0,
          notAnswered: 50,
          failed: 0,
          answerRate: 0.5,
          avgTalkSeconds: expect.any(Number),
        },
      ],
    });
  }, 120_000);

  it('voicemails and failures are counted on their own; the test world keeps its own figures', async () => {
    const test = await org.keyWith(['*'], { environment: 'test' });
    const before = (await test.api.get(`/api/v1/phone-numbers/${numberId}/health`)).body.data;
    expect(before).toEqual({ number: org.from, status: 'healthy', days: [] });
    const ids = await Promise.all(
      ['+14155570007', '+14155570009'].map(
        async (to) => (await test.api.post('/api/v1/calls', { to, from: org.from })).body.data.id as string,
      ),
    );
    await Promise.all(ids.map((id) => waitForCall({ ...org, api: test.api }, id, finished)));
    const [day] = (await test.api.get(`/api/v1/phone-numbers/${numberId}/health`)).body.data.days;
    expect(day).toMatchObject({ placed: 2, human: 0, voicemail: 1, notAnswered: 0, failed: 1, answerRate: 0 });
    expect((await org.api.get(`/api/v1/phone-numbers/${numberId}/health`)).body.data.days[0].placed).toBe(100);
  });

  it("days is 1-90 (default 7); another organization's number is 404", async () => {
    for (const days of ['0', '91', 'x']) {
      const res = await org.api.get(`/api/v1/phone-numbers/${numberId}/health?days=${days}`);
      expect({ days, status: res.status, code: res.body.error?.code }).toEqual({
        days,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await org.api.get(`/api/v1/phone-numbers/${numberId}/health?days=90`)).status).toBe(200);
    expect((await org.api.get(`/api/v1/phone-numbers/${numberId}/health?days=1`)).body.data.days).toHaveLength(1);
    const other = await callingOrg(t);
    expect((await other.api.get(`/api/v1/phone-numbers/${numberId}/health`)).status).toBe(404);
    const reader = await org.keyWith(['phone_numbers:read']);
    expect((await reader.api.get(`/api/v1/phone-numbers/${numberId}/health`)).status).toBe(403);
  });
});
