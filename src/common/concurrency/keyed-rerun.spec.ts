import { KeyedRerun } from './keyed-rerun';

/** Work that records each run's key and finishes (or fails) only when told to. */
function gatedWork() {
  const started: string[] = [];
  const gates: Array<{ settle: () => void; fail: (e: Error) => void }> = [];
  const work = (key: string) => {
    started.push(key);
    return new Promise<void>((resolve, reject) => gates.push({ settle: resolve, fail: reject }));
  };
  const turn = () => new Promise((r) => setImmediate(r));
  const settleNext = async () => {
    await turn();
    gates.shift()?.settle();
    await turn();
  };
  const failNext = async (error: Error) => {
    await turn();
    gates.shift()?.fail(error);
    await turn();
  };
  return { started, work, settleNext, failNext };
}

describe('KeyedRerun', () => {
  it('runs at once for an idle key, and once more after it for every ask made meanwhile', async () => {
    const g = gatedWork();
    const reruns = new KeyedRerun(g.work);
    let firstDone = false;
    const first = reruns.ask('c').then(() => (firstDone = true));
    const meanwhile = [reruns.ask('c'), reruns.ask('c'), reruns.ask('c')];
    expect(g.started).toEqual(['c']);
    await g.settleNext();
    expect(firstDone).toBe(true);
    expect(g.started).toEqual(['c', 'c']);
    await g.settleNext();
    await Promise.all([first, ...meanwhile]);
    expect(g.started).toEqual(['c', 'c']);
  });

  it('runs keys side by side, and anew once a key has gone idle', async () => {
    const g = gatedWork();
    const reruns = new KeyedRerun(g.work);
    const both = [reruns.ask('a'), reruns.ask('b')];
    expect(g.started).toEqual(['a', 'b']);
    await g.settleNext();
    await g.settleNext();
    await Promise.all(both);
    const again = reruns.ask('a');
    expect(g.started).toEqual(['a', 'b', 'a']);
    await g.settleNext();
    await again;
  });

  it('rejects the asks a failed run answers, and still runs the one asked for meanwhile', async () => {
    const g = gatedWork();
    const reruns = new KeyedRerun(g.work);
    const first = reruns.ask('c');
    const meanwhile = reruns.ask('c');
    await g.failNext(new Error('lock lost'));
    await expect(first).rejects.toThrow('lock lost');
    expect(g.started).toEqual(['c', 'c']);
    await g.settleNext();
    await expect(meanwhile).resolves.toBeUndefined();
  });

  it('is idle once every run going or asked for has settled', async () => {
    const g = gatedWork();
    const reruns = new KeyedRerun(g.work);
    const asks = [reruns.ask('c'), reruns.ask('c')];
    let idle = false;
    const waited = reruns.idle().then(() => (idle = true));
    await g.settleNext();
    expect(idle).toBe(false);
    await g.settleNext();
    await waited;
    await Promise.all(asks);
    expect(idle).toBe(true);
  });
});
