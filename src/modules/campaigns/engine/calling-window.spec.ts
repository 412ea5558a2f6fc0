import { CallingWindow } from '../campaign.entity';
import { windowOpensAt } from './calling-window';

const weekdays: CallingWindow = {
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  start: '09:00',
  end: '17:00',
  timezone: 'UTC',
};

describe('windowOpensAt', () => {
  it('is `at` itself inside the window and the next opening outside it', () => {
    const inside = new Date('2026-11-23T10:00:00Z'); // a Monday
    expect(windowOpensAt(weekdays, 'UTC', inside)).toEqual(inside);
    expect(windowOpensAt(weekdays, 'UTC', new Date('2026-11-23T17:00:00Z'))).toEqual(new Date('2026-11-24T09:00:00Z'));
    expect(windowOpensAt(weekdays, 'UTC', new Date('2026-11-23T08:59:00Z'))).toEqual(new Date('2026-11-23T09:00:00Z'));
  });

  it('skips days not in the window (Friday evening -> Monday morning)', () => {
    expect(windowOpensAt(weekdays, 'UTC', new Date('2026-11-27T18:00:00Z'))).toEqual(new Date('2026-11-30T09:00:00Z'));
  });

  it('evaluates the hours in the contact zone', () => {
    // 10:00 UTC is 05:00 in New York (EST): opens at 09:00 EST = 14:00 UTC.
    expect(windowOpensAt(weekdays, 'America/New_York', new Date('2026-11-23T10:00:00Z'))).toEqual(
      new Date('2026-11-23T14:00:00Z'),
    );
  });

  it('follows daylight saving time: 09:00 in New York is 13:00 UTC in summer, 14:00 UTC in winter', () => {
    const summer = windowOpensAt(weekdays, 'America/New_York', new Date('2026-07-06T05:00:00Z'));
    expect(summer).toEqual(new Date('2026-07-06T13:00:00Z'));
    // The Monday after the November 1st change.
    const winter = windowOpensAt(weekdays, 'America/New_York', new Date('2026-11-02T05:00:00Z'));
    expect(winter).toEqual(new Date('2026-11-02T14:00:00Z'));
  });

  it('supports windows past midnight', () => {
    const night: CallingWindow = { days: ['mon'], start: '22:00', end: '02:00', timezone: 'UTC' };
    const tuesdayOneAm = new Date('2026-11-24T01:00:00Z');
    expect(windowOpensAt(night, 'UTC', tuesdayOneAm)).toEqual(tuesdayOneAm);
    expect(windowOpensAt(night, 'UTC', new Date('2026-11-24T03:00:00Z'))).toEqual(new Date('2026-11-30T22:00:00Z'));
  });

  it('is always open without a window', () => {
    const at = new Date('2026-11-23T03:00:00Z');
    expect(windowOpensAt(null, 'UTC', at)).toEqual(at);
  });
});
