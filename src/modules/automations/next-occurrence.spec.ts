import { nextOccurrence, ruleProblem } from './next-occurrence';

describe('nextOccurrence', () => {
  const start = new Date('2026-01-05T00:00:00Z');

  it('keeps a daily 09:00 in Paris at 09:00 local across the spring change (08:00 UTC -> 07:00 UTC)', () => {
    const rule = 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0';
    expect(nextOccurrence(rule, 'Europe/Paris', start, new Date('2026-03-27T12:00:00Z'))).toEqual(
      new Date('2026-03-28T08:00:00Z'),
    );
    expect(nextOccurrence(rule, 'Europe/Paris', start, new Date('2026-03-28T12:00:00Z'))).toEqual(
      new Date('2026-03-29T07:00:00Z'),
    );
  });

  it('counts intervals from the start and returns null after the last occurrence', () => {
    const rule = 'FREQ=SECONDLY;INTERVAL=2;COUNT=3';
    expect(nextOccurrence(rule, 'UTC', start, new Date('2026-01-05T00:00:01Z'))).toEqual(
      new Date('2026-01-05T00:00:02Z'),
    );
    expect(nextOccurrence(rule, 'UTC', start, new Date('2026-01-05T00:00:04Z'))).toBeNull();
  });

  it('accepts hourly and slower rules, refuses what does not parse and sub-hourly frequencies', () => {
    expect(ruleProblem('FREQ=WEEKLY;BYDAY=MO')).toBeNull();
    expect(ruleProblem('FREQ=HOURLY;BYMINUTE=30;BYSECOND=0')).toBeNull();
    expect(ruleProblem('FREQ=HOURLY;BYMINUTE=0,30;BYSECOND=0')).toMatch(/BYMINUTE/);
    expect(ruleProblem('FREQ=DAILY;BYHOUR=9;BYMINUTE=0,1,2')).toMatch(/BYMINUTE/);
    expect(ruleProblem('FREQ=NOPE')).toMatch(/RFC 5545/);
    expect(ruleProblem('FREQ=SECONDLY')).toMatch(/at most hourly/);
    expect(ruleProblem('FREQ=MINUTELY;INTERVAL=30')).toMatch(/at most hourly/);
    expect(ruleProblem('FREQ=HOURLY;BYSECOND=0,30')).toMatch(/BYSECOND/);
  });
});
