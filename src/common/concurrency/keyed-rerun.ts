const ignore = (): void => undefined;

/**
 * Runs work per key, one run at a time, every ask answered by a run that starts after it: asked while the key's
 * run is going, it waits for one more run after that one, which every ask made meanwhile shares. For work that
 * takes in all that is pending when it starts (a campaign's step records every call that ended before it):
 * asks piling up during a run cost one run more, not one each.
 */
export class KeyedRerun {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, Promise<void>>();

  constructor(private readonly work: (key: string) => Promise<void>) {}

  /** Settles as the run that answers it does (a failed run rejects every ask it answers). */
  ask(key: string): Promise<void> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    const running = this.running.get(key);
    if (!running) return this.start(key);
    const next = running.then(ignore, ignore).then(() => {
      this.queued.delete(key);
      return this.start(key);
    });
    this.queued.set(key, next);
    return next;
  }

  /** Once every run going or asked for has settled. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values(), ...this.queued.values()]);
  }

  private start(key: string): Promise<void> {
    const run: Promise<void> = (async () => this.work(key))().finally(() => {
      if (this.running.get(key) === run) this.running.delete(key);
    });
    this.running.set(key, run);
    return run;
  }
}
