interface Waiter<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs work in batches per key, one batch per key at a time: the items submitted while their key is idle go
 * together once the code submitting them yields (the microtasks already queued run first), and items submitted
 * while a batch of their key runs wait and go together in the next one. For work where every item needs the same
 * contended lock (one organization's minute balance): one acquisition then serves a whole batch, and the waiting
 * happens here instead of on database connections parked in a lock queue.
 *
 * Items often come in bursts from one piece of code (a campaign's step starting its calls' dispatches in a loop,
 * a batch's results resolving their callers together): run at once, the first of a burst went alone and the
 * others waited for its whole batch (a step of seven calls: one claim and one reservation, then six).
 */
export class KeyedBatcher<I, R> {
  private readonly waiting = new Map<string, Waiter<I, R>[]>();
  private readonly running = new Set<string>();

  /** `run` returns one result per item, in the items' order; if it throws, every item of the batch rejects. */
  constructor(
    private readonly run: (key: string, items: I[]) => Promise<R[]>,
    private readonly maxBatch: number,
  ) {}

  submit(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ item, resolve, reject });
      else this.waiting.set(key, [{ item, resolve, reject }]);
      if (this.running.has(key)) return;
      this.running.add(key);
      // A promise's callback, not queueMicrotask: fake timers in specs may stand in for that, never for this.
      void Promise.resolve().then(() => this.drain(key));
    });
  }

  /** Runs the key's batches until none waits; the key is marked running from the first submit that scheduled it. */
  private async drain(key: string): Promise<void> {
    try {
      for (let queue = this.waiting.get(key); queue?.length; queue = this.waiting.get(key)) {
        const batch = queue.splice(0, this.maxBatch);
        if (!queue.length) this.waiting.delete(key);
        try {
          const results = await this.run(
            key,
            batch.map((w) => w.item),
          );
          batch.forEach((w, i) => w.resolve(results[i]));
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.running.delete(key);
    }
  }
}
