export interface Waiter {
  id: string;
  /** Smaller goes first: when the waiter became due. */
  rank: number;
}

/**
 * At most `limit` units held per key in this process (one organization's share of a worker's slots), with a line
 * of waiters per key, oldest first, to wake when a unit is given back. A free unit goes to whoever asks first
 * (a unit kept for a woken waiter would stand idle while the waiter travels back through the queue); a waiter
 * that finds it taken goes back to its place in line, so every waiter is woken in turn and none waits out its
 * own delay (measured: a line of 20 left the rest of a burst parked for whole timeouts).
 */
export class PerKeyLimit {
  private readonly held = new Map<string, number>();
  private readonly lines = new Map<string, Waiter[]>();

  constructor(
    readonly limit: number,
    private readonly maxWaitingPerKey = 10_000,
  ) {}

  /** Takes a unit of `key` for `id`, which leaves the line if it was in it. */
  tryTake(key: string, id: string): boolean {
    this.leaveLine(key, id);
    const n = this.heldBy(key);
    if (n >= this.limit) return false;
    this.held.set(key, n + 1);
    return true;
  }

  /** Gives a unit back; returns the longest waiter of `key` to wake, taken out of the line. */
  give(key: string): Waiter | undefined {
    const n = this.heldBy(key) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    return this.wake(key);
  }

  /** The longest waiter of `key`, taken out of the line, when a unit is free for it. */
  wake(key: string): Waiter | undefined {
    if (this.heldBy(key) >= this.limit) return undefined;
    const line = this.lines.get(key);
    const next = line?.shift();
    if (line && !line.length) this.lines.delete(key);
    return next;
  }

  /** Puts the waiter in the line of `key` at its rank (once; ignored when the line is full). */
  park(key: string, waiter: Waiter): void {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = []));
    if (line.length >= this.maxWaitingPerKey || line.some((w) => w.id === waiter.id)) return;
    let at = line.length;
    while (at > 0 && line[at - 1].rank > waiter.rank) at--;
    line.splice(at, 0, waiter);
  }

  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private leaveLine(key: string, id: string): void {
    const line = this.lines.get(key);
    const at = line?.findIndex((w) => w.id === id) ?? -1;
    if (at < 0) return;
    line!.splice(at, 1);
    if (!line!.length) this.lines.delete(key);
  }
}
