import { PerKeyLimit } from './per-key-limit';

describe('PerKeyLimit', () => {
  it('lets each key hold at most the limit, whatever other keys hold', () => {
    const limit = new PerKeyLimit(2);
    expect([limit.tryTake('a', 'j1'), limit.tryTake('a', 'j2'), limit.tryTake('a', 'j3')]).toEqual([true, true, false]);
    expect(limit.tryTake('b', 'k1')).toBe(true);
    limit.give('a');
    expect(limit.tryTake('a', 'j3')).toBe(true);
    expect(limit.heldBy('a')).toBe(2);
  });

  it('wakes the waiters of the key a unit was given back to oldest first, each once', () => {
    const limit = new PerKeyLimit(1);
    limit.tryTake('a', 'j0');
    limit.park('a', { id: 'j2', rank: 20 });
    limit.park('a', { id: 'j1', rank: 10 });
    limit.park('a', { id: 'j1', rank: 10 });
    limit.park('b', { id: 'k1', rank: 5 });
    expect(limit.give('a')?.id).toBe('j1');
    expect(limit.give('a')?.id).toBe('j2');
    expect(limit.give('a')).toBeUndefined();
    expect(limit.heldBy('a')).toBe(0);
  });

  it('gives a free unit to whoever asks first; a waiter that finds it taken goes back to its place', () => {
    const limit = new PerKeyLimit(1);
    limit.tryTake('a', 'j0');
    limit.park('a', { id: 'j1', rank: 10 });
    limit.park('a', { id: 'j2', rank: 20 });
    const woken = limit.give('a')!;
    expect(limit.tryTake('a', 'new')).toBe(true);
    expect(limit.tryTake('a', woken.id)).toBe(false);
    limit.park('a', woken);
    expect(limit.give('a')?.id).toBe('j1');
    // Taking a unit takes the waiter out of the line.
    expect(limit.tryTake('a', 'j2')).toBe(true);
    limit.give('a');
    expect(limit.wake('a')).toBeUndefined();
  });

  it('wakes nobody while every unit is held', () => {
    const limit = new PerKeyLimit(1);
    limit.tryTake('a', 'j0');
    limit.park('a', { id: 'j1', rank: 10 });
    expect(limit.wake('a')).toBeUndefined();
  });

  it('keeps a bounded line per key', () => {
    const limit = new PerKeyLimit(1, 2);
    for (const id of ['j1', 'j2', 'j3']) limit.park('a', { id, rank: 1 });
    expect([limit.wake('a')?.id, limit.wake('a')?.id, limit.wake('a')?.id]).toEqual(['j1', 'j2', undefined]);
  });
});
