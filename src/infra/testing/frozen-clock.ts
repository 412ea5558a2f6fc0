/**
 * Stops the clock of `Date` (`Date.now()`, `new Date()`) at `at` for a unit spec, timers and the microtask queue
 * left real, so rules that read the time are tested at chosen instants. Undone by `thawClock` (call it in afterEach).
 */
export function freezeClock(at: Date | string): Date {
  const now = new Date(at);
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return now;
}

/** Moves the frozen clock by `ms`. */
export function advanceClock(ms: number): Date {
  jest.setSystemTime(Date.now() + ms);
  return new Date();
}

export function thawClock(): void {
  jest.useRealTimers();
}
