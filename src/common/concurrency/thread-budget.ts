import type { Worker } from 'node:worker_threads';

/** The question outlasted its budget: the caller should stop the thread, no answer is known. */
export class ThreadBudgetExceeded extends Error {}

/**
 * How many times its CPU budget a question may take on the clock. A thread waiting for a core on a busy machine
 * computes nothing, so the budget counts the thread's CPU time; this bounds how long a caller waits all the same.
 */
export const WALL_CLOCK_FACTOR = 10;

/**
 * Posts `question` to a worker thread and waits for its next message, for at most `budgetMs` of the thread's own
 * CPU time (`Worker.cpuUsage`, Node 22.19 and 24.6 onwards; where it is missing, of the clock) and at most
 * WALL_CLOCK_FACTOR times that on the clock. A fixed clock budget alone refused cheap questions whenever the machine
 * was busy: a computation of a millisecond took over 50 ms on the clock with the cores taken by other work.
 * Rejects with ThreadBudgetExceeded; the thread is then still computing, and stopping it is the caller's.
 */
export async function askWithinBudget<A>(worker: Worker, question: unknown, budgetMs: number): Promise<A> {
  const cpuAtStart = await threadCpuMs(worker);
  const deadline = Date.now() + budgetMs * WALL_CLOCK_FACTOR;
  return new Promise<A>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout;
    const answered = (message: A) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(message);
    };
    const check = async () => {
      const now = Date.now();
      const cpu = await threadCpuMs(worker);
      const used = cpuAtStart === undefined || cpu === undefined ? budgetMs : cpu - cpuAtStart;
      if (settled) return;
      if (used < budgetMs && now < deadline) {
        timer = setTimeout(() => void check(), Math.max(1, Math.min(budgetMs - used, deadline - now)));
        return;
      }
      settled = true;
      worker.off('message', answered);
      reject(new ThreadBudgetExceeded(`no answer within ${budgetMs} ms of computation`));
    };
    timer = setTimeout(() => void check(), budgetMs);
    worker.once('message', answered);
    worker.postMessage(question);
  });
}

/** The thread's CPU time so far (user and system), or undefined where Node cannot tell or the thread is gone. */
async function threadCpuMs(worker: Worker): Promise<number | undefined> {
  const usage = (worker as Worker & { cpuUsage?: () => Promise<NodeJS.CpuUsage> }).cpuUsage;
  if (!usage) return undefined;
  try {
    const { user, system } = await usage.call(worker);
    return (user + system) / 1000;
  } catch {
    return undefined;
  }
}
