interface Waiter {
  id: string;
  /** Smaller goes first: how long the waiter has been due (its queue timestamp). */
  rank: number;
}

/**
 * At most `limit` units held per key in this process (one organization's share of a worker's slots), with a line
 * of waiters per key that is served in turn (issue 21: first come, first served, or a burst's waiters starve
 * behind every newcomer and wait out whole timeouts).
 *
 * - A newcomer takes a unit only when nobody of its key waits here and no unit is kept for a woken waiter; else
 *   it joins the line. A returning waiter (woken, or back on its own delay) takes any free unit.
 * - A unit given back goes to the longest waiter: the caller wakes it, and the unit is kept from newcomers until
 *   it comes. A woken waiter may be fetched by another process, which never tells this one; so a unit stops
 *   being kept once this process sees work that entered the queue after the wake-up (`lapse`: the queue is
 *   first in, first out, so the woken waiter was fetched before it) or after `keepMs` at most.
 */
export class PerKeyLimit {
  private readonly held = new Map<string, number>();
  private readonly lines = new Map<string, Waiter[]>();
  /** Woken waiters not yet back, in the order they were woken: id -> key and when. */
  private readonly woken = new Map<string, { key: string; at: number }>();
  private readonly kept = new Map<string, number>();

  constructor(
    readonly limit: number,
    private readonly keepMs: number,
    private readonly maxWaitingPerKey = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a unit of `key` for `id`; `returning`: the waiter was deferred before (here or in another process). */
  tryTake(key: string, id: string, returning: boolean): boolean {
    this.unkeep(id);
    if (returning) this.leaveLine(key, id);
    const n = this.heldBy(key);
    if (n >= this.limit) return false;
    if (!returning && (this.lines.has(key) || n + (this.kept.get(key) ?? 0) >= this.limit)) return false;
    this.held.set(key, n + 1);
    return true;
  }

  /** Gives a unit back; returns the waiters to wake now. */
  give(key: string): string[] {
    const n = this.heldBy(key) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    return this.wake(key);
  }

  /** Puts `id` in the line of `key` by rank (once; ignored when the line is full). */
  park(key: string, id: string, rank: number): void {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = []));
    if (line.length >= this.maxWaitingPerKey || line.some((w) => w.id === id)) return;
    let at = line.length;
    while (at > 0 && line[at - 1].rank > rank) at--;
    line.splice(at, 0, { id, rank });
  }

  /**
   * The waiters of `key` to wake now, taken out of the line: one per unit that is free and not kept for a
   * waiter already woken. Each is kept a unit until it comes back or `forget` says it will not.
   */
  wake(key: string): string[] {
    this.lapse(this.now() - this.keepMs);
    const line = this.lines.get(key);
    const woken: string[] = [];
    while (line?.length && this.heldBy(key) + (this.kept.get(key) ?? 0) < this.limit) {
      const { id } = line.shift()!;
      this.woken.set(id, { key, at: this.now() });
      this.kept.set(key, (this.kept.get(key) ?? 0) + 1);
      woken.push(id);
    }
    if (line && !line.length) this.lines.delete(key);
    return woken;
  }

  /** Whether `id` was woken and has not come back yet. */
  isWoken(id: string): boolean {
    return this.woken.has(id);
  }

  /** A woken waiter that will not come back (its job is gone): its unit is no longer kept. */
  forget(id: string): void {
    this.unkeep(id);
  }

  /** Stops keeping units for waiters woken before `before` (they were fetched elsewhere, or are long gone). */
  lapse(before: number): void {
    for (const [id, { at }] of this.woken) {
      if (at >= before) return;
      this.unkeep(id);
    }
  }

  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private unkeep(id: string): void {
    const wake = this.woken.get(id);
    if (!wake) return;
    this.woken.delete(id);
    const n = (this.kept.get(wake.key) ?? 1) - 1;
    if (n > 0) this.kept.set(wake.key, n);
    else this.kept.delete(wake.key);
  }

  private leaveLine(key: string, id: string): void {
    const line = this.lines.get(key);
    const at = line?.findIndex((w) => w.id === id) ?? -1;
    if (at < 0) return;
    line!.splice(at, 1);
    if (!line!.length) this.lines.delete(key);
  }
}
