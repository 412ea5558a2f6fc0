import { KeyedBatcher } from './keyed-batcher';

/** A run function that records its batches and finishes only when told to. */
function gatedRun() {
  const batches: { key: string; items: number[] }[] = [];
  const gates: (() => void)[] = [];
  const run = (key: string, items: number[]) => {
    batches.push({ key, items });
    return new Promise<string[]>((resolve) => gates.push(() => resolve(items.map((i) => `${key}:${i}`))));
  };
  const openNext = async () => {
    await new Promise((r) => setImmediate(r));
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, run, openNext };
}

describe('KeyedBatcher', () => {
  it('runs the items submitted together while their key is idle in one batch', async () => {
    const g = gatedRun();
    const batcher = new KeyedBatcher(g.run, 10);
    const all = [1, 2, 3].map((i) => batcher.submit('org', i));
    await g.openNext();
    expect(await Promise.all(all)).toEqual(['org:1', 'org:2', 'org:3']);
    expect(g.batches).toEqual([{ key: 'org', items: [1, 2, 3] }]);
  });

  it('gathers the items of callers resumed together (one batch resolving them) in one batch', async () => {
    const g = gatedRun();
    const batcher = new KeyedBatcher(g.run, 10);
    const resumed = [1, 2, 3].map(async (i) => {
      await Promise.resolve();
      await Promise.resolve();
      return batcher.submit('org', i);
    });
    await g.openNext();
    expect(await Promise.all(resumed)).toEqual(['org:1', 'org:2', 'org:3']);
    expect(g.batches).toEqual([{ key: 'org', items: [1, 2, 3] }]);
  });

  it('runs an item alone when its key is idle, and batches what arrives meanwhile, in order', async () => {
    const g = gatedRun();
    const batcher = new KeyedBatcher(g.run, 10);
    const first = batcher.submit('org', 1);
    await new Promise((r) => setImmediate(r));
    const rest = [2, 3, 4].map((i) => batcher.submit('org', i));
    await g.openNext();
    await g.openNext();
    expect(await first).toBe('org:1');
    expect(await Promise.all(rest)).toEqual(['org:2', 'org:3', 'org:4']);
    expect(g.batches).toEqual([
      { key: 'org', items: [1] },
      { key: 'org', items: [2, 3, 4] },
    ]);
  });

  it('keeps keys independent: another key does not wait for a running batch', async () => {
    const g = gatedRun();
    const batcher = new KeyedBatcher(g.run, 10);
    const a = batcher.submit('a', 1);
    const b = batcher.submit('b', 1);
    await new Promise((r) => setImmediate(r));
    expect(g.batches.map((x) => x.key)).toEqual(['a', 'b']);
    await g.openNext();
    await g.openNext();
    expect(await Promise.all([a, b])).toEqual(['a:1', 'b:1']);
  });

  it('caps a batch at maxBatch items', async () => {
    const g = gatedRun();
    const batcher = new KeyedBatcher(g.run, 2);
    const all = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit('k', i));
    for (let i = 0; i < 3; i++) await g.openNext();
    expect(await Promise.all(all)).toHaveLength(6);
    expect(g.batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });

  it('rejects every item of a failed batch and goes on with the next', async () => {
    let calls = 0;
    const batcher = new KeyedBatcher<number, number>(async (_key, items) => {
      calls++;
      await new Promise((r) => setImmediate(r));
      if (calls === 2) throw new Error('database unavailable');
      return items.map((i) => i * 10);
    }, 10);
    const first = batcher.submit('k', 1);
    await new Promise((r) => setImmediate(r));
    const failing = [2, 3].map((i) => batcher.submit('k', i));
    await expect(first).resolves.toBe(10);
    for (const p of failing) await expect(p).rejects.toThrow('database unavailable');
    await expect(batcher.submit('k', 4)).resolves.toBe(40);
  });
});
