/**
 * Concurrent asks for the same key share one run: the first starts it, the others get its promise until it
 * settles. Nothing is kept after that (not a cache), so an ask made after the run settled starts a new one.
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current) return current;
    const started = (async () => work())().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
