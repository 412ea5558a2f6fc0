import { Worker } from 'node:worker_threads';
import { ThreadBudgetExceeded, WALL_CLOCK_FACTOR, askWithinBudget } from './thread-budget';

/**
 * Threads that answer each question after `ms` of sleeping (Atomics.wait: time on the clock, no CPU, as a thread
 * waiting for a core on a busy machine) or of spinning (CPU), then say what they were asked. Like the service's
 * threads, they are asked once started (their start-up is CPU time too).
 */
async function thread(kind: 'sleep' | 'spin'): Promise<Worker> {
  const body =
    kind === 'sleep'
      ? 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, q.ms);'
      : 'const end = Date.now() + q.ms; while (Date.now() < end);';
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (q) => { ${body} parentPort.postMessage({ answered: q.ms }); });
     parentPort.postMessage('ready');`,
    { eval: true },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return worker;
}

describe('askWithinBudget', () => {
  const workers: Worker[] = [];
  const start = async (kind: 'sleep' | 'spin') => {
    const worker = await thread(kind);
    workers.push(worker);
    return worker;
  };
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.terminate()));
  });

  it('answers what the thread answers within its budget', async () => {
    await expect(askWithinBudget(await start('spin'), { ms: 0 }, 200)).resolves.toEqual({ answered: 0 });
  });

  it('waits for a thread that is slow on the clock without computing (a busy machine), up to the clock cap', async () => {
    // Four times the budget on the clock, no CPU: a clock budget would have refused it.
    await expect(askWithinBudget(await start('sleep'), { ms: 200 }, 50)).resolves.toEqual({ answered: 200 });
  });

  it('refuses a thread that computes past its budget', async () => {
    await expect(askWithinBudget(await start('spin'), { ms: 5_000 }, 50)).rejects.toBeInstanceOf(ThreadBudgetExceeded);
  });

  it('refuses past the clock cap even when the thread computes nothing', async () => {
    const budget = 20;
    await expect(
      askWithinBudget(await start('sleep'), { ms: budget * WALL_CLOCK_FACTOR * 5 }, budget),
    ).rejects.toBeInstanceOf(ThreadBudgetExceeded);
  });
});
