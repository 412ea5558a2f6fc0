import { RECENT_WINDOW, healthStatus } from './health-status';

const calls = (answered: number, total = RECENT_WINDOW) => Array.from({ length: total }, (_, i) => i < answered);

describe("a number's health by its own history", () => {
  it('is healthy with fewer than 50 placed calls, whatever they were', () => {
    expect(healthStatus(calls(0, RECENT_WINDOW - 1), { placed: 200, human: 150 })).toBe('healthy');
  });

  it('compares the last 50 with the 30-day rate: below half degraded, below three quarters watch', () => {
    const baseline = { placed: 100, human: 60 }; // 60 %: degraded under 30 %, watch under 45 %
    expect(healthStatus(calls(14), baseline)).toBe('degraded'); // 28 %
    expect(healthStatus(calls(15), baseline)).toBe('watch'); // 30 %: not below half
    expect(healthStatus(calls(22), baseline)).toBe('watch'); // 44 %
    expect(healthStatus(calls(23), baseline)).toBe('healthy'); // 46 %
  });

  it('takes only the last 50 calls of a longer window', () => {
    const older = calls(0, 10);
    expect(healthStatus([...older, ...calls(RECENT_WINDOW)], { placed: 100, human: 50 })).toBe('healthy');
  });

  it('a number nobody ever answered has nothing to fall from', () => {
    expect(healthStatus(calls(0), { placed: 100, human: 0 })).toBe('healthy');
    expect(healthStatus(calls(0), { placed: 0, human: 0 })).toBe('healthy');
  });
});
