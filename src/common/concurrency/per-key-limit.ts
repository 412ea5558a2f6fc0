/**
 * At most `limit` units held per key in this process (one organization's share of a worker's slots), with a
 * short line of waiters per key to wake when a unit is given back. The line is bounded: one waiter per unit
 * given back is all that can run, so a few per unit are enough; those left out wake on their own delay.
 */
export class PerKeyLimit {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Set<string>>();

  constructor(
    readonly limit: number,
    private readonly maxWaitingPerKey = 2 * limit,
  ) {}

  tryTake(key: string): boolean {
    const n = this.held.get(key) ?? 0;
    if (n >= this.limit) return false;
    this.held.set(key, n + 1);
    return true;
  }

  /** Gives a unit back; returns the longest waiter of `key` to wake, if any. */
  give(key: string): string | undefined {
    const n = (this.held.get(key) ?? 1) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    const line = this.waiting.get(key);
    const next = line?.values().next().value;
    if (next === undefined) return undefined;
    line!.delete(next);
    if (!line!.size) this.waiting.delete(key);
    return next;
  }

  /** Records `id` as waiting for a unit of `key` (once; ignored when the line is full). */
  park(key: string, id: string): void {
    let line = this.waiting.get(key);
    if (!line) this.waiting.set(key, (line = new Set()));
    if (line.size < this.maxWaitingPerKey) line.add(id);
  }

  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }
}
