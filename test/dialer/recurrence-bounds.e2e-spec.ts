import { TestApp, startTestApp } from '../support/test-app';
import { CallsOrg, callingOrg, insertCase } from '../calls/call-fixtures';

const EVERY_MINUTE = Array.from({ length: 60 }, (_, m) => m).join(',');

/**
 * Recurrence rules are bounded (docs/operations.md, "Recurring schedules"): sub-hourly frequencies are refused,
 * and so is a rule with no occurrence in the next 366 days, within 100 ms and without holding the event loop,
 * even when the rule never matches at all (rrule alone walks every period up to the year 9999 looking for one).
 * The app runs in this process, so the event-loop delay measured here is the one its requests see.
 */
describe('recurring schedules: bounded rules', () => {
  let t: TestApp;
  let org: CallsOrg;
  let caseId: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await callingOrg(t);
    caseId = await insertCase(t, org, { prompt: 'Remind', firstMessage: 'Hello' });
  });
  afterAll(() => t?.close());

  const schedule = (rrule: string) =>
    t.admin.post(`/admin/v1/organizations/${org.id}/recurring-schedules`, {
      caseId,
      rrule,
      from: org.from,
      audience: { rows: [{ to: '+14155640000' }] },
    });

  it('accepts an hourly-or-slower rule with an occurrence to come', async () => {
    const res = await schedule('FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0');
    expect(res.status).toBe(201);
    const next = new Date(res.body.data.nextOccurrenceAt).getTime();
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    expect((await schedule('FREQ=HOURLY;BYMINUTE=30;BYSECOND=0')).status).toBe(201);
  });

  it.each([
    ['FREQ=SECONDLY', /at most hourly/],
    ['FREQ=SECONDLY;INTERVAL=2;COUNT=2', /at most hourly/],
    ['FREQ=MINUTELY;INTERVAL=15', /at most hourly/],
    ['FREQ=HOURLY;BYSECOND=0,10,20,30,40,50', /BYSECOND/],
    // Every minute of every hour under an hourly frequency: a campaign a minute.
    [`FREQ=HOURLY;BYMINUTE=${EVERY_MINUTE}`, /BYMINUTE/],
    ['FREQ=HOURLY;BYMINUTE=0,30;BYSECOND=0', /BYMINUTE/],
    ['FREQ=YEARLY;INTERVAL=5', /within the next 366 days/],
    ['FREQ=DAILY;UNTIL=20000101T000000Z', /within the next 366 days/],
    ['FREQ=NEVER', /RFC 5545/],
  ])('refuses %s with 400 VALIDATION_ERROR naming rrule', async (rrule, message) => {
    const res = await schedule(rrule);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'rrule', message: expect.stringMatching(message) }]);
  });

  it.each([
    // February 30th: rrule alone tries every day (or hour) until the year 9999, seconds to tens of seconds.
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=WEEKLY;BYDAY=MO;BYMONTH=2;BYMONTHDAY=31',
  ])(
    'refuses the never-matching %s once its computation outlasts the budget (timed by bench/recurrence.bench.ts)',
    async (rrule) => {
      await schedule('FREQ=DAILY;BYHOUR=9'); // the occurrence thread is warm, as in a running service
      const res = await schedule(rrule);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { field: 'rrule', message: 'rrule must have an occurrence within the next 366 days' },
      ]);
      // The next rule is answered by a fresh thread, as quickly.
      expect((await schedule('FREQ=WEEKLY;BYDAY=MO')).status).toBe(201);
    },
  );
});
