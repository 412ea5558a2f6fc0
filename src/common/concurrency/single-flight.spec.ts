import { SingleFlight } from './single-flight';

/** A run that settles when told to, counting how many times it started. */
function gate<T>() {
  let settle!: (value: T) => void;
  let fail!: (error: Error) => void;
  let started = 0;
  const work = () => {
    started++;
    return new Promise<T>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
  };
  return { work, settle: (v: T) => settle(v), fail: (e: Error) => fail(e), started: () => started };
}

describe('SingleFlight', () => {
  it('shares one run among concurrent asks for a key', async () => {
    const flights = new SingleFlight<number>();
    const g = gate<number>();
    const asks = [flights.run('a', g.work), flights.run('a', g.work), flights.run('a', g.work)];
    g.settle(7);
    await expect(Promise.all(asks)).resolves.toEqual([7, 7, 7]);
    expect(g.started()).toBe(1);
  });

  it('runs apart for different keys, and anew once a run has settled', async () => {
    const flights = new SingleFlight<string>();
    const a = gate<string>();
    const b = gate<string>();
    const first = flights.run('a', a.work);
    const other = flights.run('b', b.work);
    a.settle('a1');
    b.settle('b1');
    await expect(Promise.all([first, other])).resolves.toEqual(['a1', 'b1']);
    const again = flights.run('a', a.work);
    a.settle('a2');
    await expect(again).resolves.toBe('a2');
    expect(a.started()).toBe(2);
  });

  it('hands a failure to every sharer and keeps nothing of it', async () => {
    const flights = new SingleFlight<number>();
    const g = gate<number>();
    const asks = [flights.run('a', g.work), flights.run('a', g.work)];
    g.fail(new Error('row gone'));
    for (const ask of asks) await expect(ask).rejects.toThrow('row gone');
    const retry = flights.run('a', g.work);
    g.settle(1);
    await expect(retry).resolves.toBe(1);
  });

  it('turns a synchronous throw into a rejection', async () => {
    const flights = new SingleFlight<number>();
    await expect(
      flights.run('a', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
  });
});
