import { PerKeyLimit } from './per-key-limit';

describe('PerKeyLimit', () => {
  let clock = 0;
  const limitOf = (n: number, maxWaiting?: number) => new PerKeyLimit(n, 1000, maxWaiting, () => clock);
  beforeEach(() => (clock = 0));

  it('lets each key hold at most the limit, whatever other keys hold', () => {
    const limit = limitOf(2);
    expect([limit.tryTake('a', 'j1', false), limit.tryTake('a', 'j2', false), limit.tryTake('a', 'j3', false)]).toEqual(
      [true, true, false],
    );
    expect(limit.tryTake('b', 'k1', false)).toBe(true);
    expect(limit.give('a')).toEqual([]);
    expect(limit.tryTake('a', 'j3', false)).toBe(true);
    expect(limit.heldBy('a')).toBe(2);
  });

  it('wakes the waiters of the key a unit was given back to in turn, each once', () => {
    const limit = limitOf(1);
    limit.tryTake('a', 'j0', false);
    limit.park('a', 'j2', 20);
    limit.park('a', 'j1', 10);
    limit.park('a', 'j1', 10);
    limit.park('b', 'k1', 5);
    expect(limit.give('a')).toEqual(['j1']);
    expect(limit.tryTake('a', 'j1', true)).toBe(true);
    expect(limit.give('a')).toEqual(['j2']);
    expect(limit.tryTake('a', 'j2', true)).toBe(true);
    expect(limit.give('a')).toEqual([]);
    expect(limit.heldBy('a')).toBe(0);
  });

  it('keeps a unit given back for the woken waiter: a newcomer queues behind it', () => {
    const limit = limitOf(1);
    limit.tryTake('a', 'j0', false);
    limit.park('a', 'j1', 10);
    expect(limit.give('a')).toEqual(['j1']);
    expect(limit.tryTake('a', 'new', false)).toBe(false);
    limit.park('a', 'new', 30);
    expect(limit.tryTake('a', 'j1', true)).toBe(true);
    expect(limit.give('a')).toEqual(['new']);
  });

  it('lets a newcomer in while others wait only once they are all served', () => {
    const limit = limitOf(2);
    limit.tryTake('a', 'j0', false);
    limit.tryTake('a', 'j1', false);
    limit.park('a', 'w', 10);
    expect(limit.give('a')).toEqual(['w']);
    expect(limit.tryTake('a', 'w', true)).toBe(true);
    limit.give('a');
    expect(limit.tryTake('a', 'new', false)).toBe(true);
  });

  describe('stops keeping a unit for a waiter that will not come', () => {
    const woken = (limit: PerKeyLimit) => {
      limit.tryTake('a', 'j0', false);
      limit.park('a', 'w', 10);
      expect(limit.give('a')).toEqual(['w']);
      expect(limit.tryTake('a', 'new', false)).toBe(false);
    };
    it('its job is gone', () => {
      const limit = limitOf(1);
      woken(limit);
      limit.forget('w');
      expect(limit.tryTake('a', 'new', false)).toBe(true);
    });
    it('work that entered the queue after the wake-up came first (another process fetched the waiter)', () => {
      const limit = limitOf(1);
      woken(limit);
      limit.lapse(clock + 1);
      expect(limit.tryTake('a', 'new', false)).toBe(true);
    });
    it('at most keepMs after the wake-up', () => {
      const limit = limitOf(1);
      woken(limit);
      clock += 1001;
      limit.park('a', 'w2', 20);
      expect(limit.wake('a')).toEqual(['w2']);
    });
  });

  it('keeps a bounded line per key', () => {
    const limit = limitOf(1, 2);
    limit.tryTake('a', 'j0', false);
    for (const id of ['j1', 'j2', 'j3']) limit.park('a', id, 1);
    expect(limit.give('a')).toEqual(['j1']);
    limit.forget('j1');
    expect(limit.wake('a')).toEqual(['j2']);
    limit.forget('j2');
    expect(limit.wake('a')).toEqual([]);
  });
});
