/** Why a campaign whose numbers all reached their daily cap waits (docs/number-health.md). */
export const DAILY_NUMBER_CAP = 'DAILY_NUMBER_CAP';

/** The area code of a North American number (`+1` and ten digits); null elsewhere (no local presence there). */
export function areaCode(e164: string): string | null {
  return /^\+1\d{10}$/.test(e164) ? e164.slice(2, 5) : null;
}

/**
 * The caller IDs a campaign may use in one step: each number's calls today (counted across the organization)
 * against the daily cap, with `degraded` numbers left out while the campaign has another. `pick` chooses a
 * number of the area code called when one has room (local presence), else the least used today; null when every
 * usable number reached its cap.
 */
export class CallerIdPool {
  private readonly usable: string[];

  constructor(
    numbers: readonly string[],
    private readonly usedToday: Map<string, number>,
    private readonly cap: number | null,
    degraded: ReadonlySet<string>,
  ) {
    const healthy = numbers.filter((n) => !degraded.has(n));
    this.usable = healthy.length ? healthy : [...numbers];
  }

  private hasRoom(number: string): boolean {
    return this.cap === null || (this.usedToday.get(number) ?? 0) < this.cap;
  }

  /** Whether no usable number can place another call today. */
  get exhausted(): boolean {
    return !this.usable.some((n) => this.hasRoom(n));
  }

  /** The number to call `to` from, counted as used; null when none has room. */
  pick(to: string): string | null {
    const open = this.usable.filter((n) => this.hasRoom(n));
    if (!open.length) return null;
    const area = areaCode(to);
    const used = (n: string) => this.usedToday.get(n) ?? 0;
    const local = area === null ? [] : open.filter((n) => areaCode(n) === area);
    const chosen = (local.length ? local : open).reduce((best, n) => (used(n) < used(best) ? n : best));
    this.usedToday.set(chosen, used(chosen) + 1);
    return chosen;
  }
}
