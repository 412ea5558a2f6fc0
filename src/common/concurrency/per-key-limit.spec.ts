import { PerKeyLimit } from './per-key-limit';

describe('PerKeyLimit', () => {
  it('lets each key hold at most the limit, whatever other keys hold', () => {
    const limit = new PerKeyLimit(2);
    expect([limit.tryTake('a'), limit.tryTake('a'), limit.tryTake('a')]).toEqual([true, true, false]);
    expect(limit.tryTake('b')).toBe(true);
    limit.give('a');
    expect(limit.tryTake('a')).toBe(true);
    expect(limit.heldBy('a')).toBe(2);
  });

  it('wakes the longest waiter of the key a unit was given back to, each once', () => {
    const limit = new PerKeyLimit(1);
    limit.tryTake('a');
    limit.park('a', 'j1');
    limit.park('a', 'j2');
    limit.park('a', 'j1');
    limit.park('b', 'k1');
    expect(limit.give('a')).toBe('j1');
    expect(limit.give('a')).toBe('j2');
    expect(limit.give('a')).toBeUndefined();
    expect(limit.heldBy('a')).toBe(0);
  });

  it('keeps a bounded line per key', () => {
    const limit = new PerKeyLimit(1, 2);
    for (const id of ['j1', 'j2', 'j3']) limit.park('a', id);
    expect([limit.give('a'), limit.give('a'), limit.give('a')]).toEqual(['j1', 'j2', undefined]);
  });
});
