const ignore = (): void => undefined;

/**
 * Runs work per key, one run at a time, every ask answered by a run that starts after it: asked while the key's
 * run is going, it waits for one more run after that one, which every ask made meanwhile shares. For work that
 * takes in all that is pending when it starts (a campaign's step records every call that ended before it):
 * asks piling up during a run cost one run more, not one each.
 *
 * A run starts once the code asking for it yields (the microtasks already queued run first), so the asks of one
 * burst share it: the calls of a batch of endings committed together each ask for their campaign's step, and run
 * at once, the first ask's step took them all in while the others' asks cost one more step for nothing.
 */
export class KeyedRerun {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, Promise<void>>();
  /** Keys whose run is set to start and has not yet: an ask now is answered by that run. */
  private readonly starting = new Set<string>();

  constructor(private readonly work: (key: string) => Promise<void>) {}

  /** Settles as the run that answers it does (a failed run rejects every ask it answers). */
  ask(key: string): Promise<void> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    const running = this.running.get(key);
    if (!running) return this.start(key);
    if (this.starting.has(key)) return running;
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
    this.starting.add(key);
    // A promise's callback, not queueMicrotask: fake timers in specs may stand in for that, never for this.
    const run: Promise<void> = Promise.resolve()
      .then(() => {
        this.starting.delete(key);
        return this.work(key);
      })
      .finally(() => {
        if (this.running.get(key) === run) this.running.delete(key);
      });
    this.running.set(key, run);
    return run;
  }
}
