import { toE164 } from './e164';

describe('toE164', () => {
  it.each([
    ['+14155550123', '+14155550123'],
    ['+1 (415) 555-0123', '+14155550123'],
    [' +44 20 7946 0958 ', '+442079460958'],
  ])('normalises %s', (input, expected) => expect(toE164(input)).toBe(expected));

  it.each(['4155550123', '+1', 'phone', '', '+999999999999999999999', 42, null])('rejects %p', (input) =>
    expect(toE164(input)).toBeNull(),
  );
});
