interface Waiter<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs work in batches per key, one batch per key at a time: an item submitted while its key is idle runs at once
 * (alone), items submitted while a batch of their key runs wait and go together in the next one. For work where
 * every item needs the same contended lock (one organization's minute balance): one acquisition then serves a
 * whole batch, and the waiting happens here instead of on database connections parked in a lock queue.
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
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
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
