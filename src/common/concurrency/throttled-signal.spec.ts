import { ThrottledSignal } from './throttled-signal';

describe('ThrottledSignal', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function signal() {
    const sent: number[] = [];
    const errors: string[] = [];
    let fail = false;
    const s = new ThrottledSignal(
      10,
      async () => {
        sent.push(sent.length);
        if (fail) throw new Error('no connection');
      },
      (err) => errors.push(err.message),
    );
    return { s, sent, errors, failNext: () => (fail = true) };
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('sends the first request at once and the ones within the interval as one more at its end', async () => {
    const { s, sent } = signal();
    s.request();
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 5; i++) s.request();
    await settle();
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(10);
    expect(sent).toHaveLength(2);
    // Nothing asked for since: the interval after the second send passes without a third.
    await jest.advanceTimersByTimeAsync(50);
    expect(sent).toHaveLength(2);
    // A quiet spell over: the next request goes at once again.
    s.request();
    expect(sent).toHaveLength(3);
  });

  it('reports a failed send and keeps sending later requests', async () => {
    const { s, sent, errors, failNext } = signal();
    failNext();
    s.request();
    await jest.advanceTimersByTimeAsync(10);
    expect(errors).toEqual(['no connection']);
    s.request();
    expect(sent).toHaveLength(2);
  });

  it('sends nothing once stopped, a pending request included', async () => {
    const { s, sent } = signal();
    s.request();
    s.request();
    await s.stop();
    await jest.advanceTimersByTimeAsync(50);
    s.request();
    expect(sent).toHaveLength(1);
  });
});
