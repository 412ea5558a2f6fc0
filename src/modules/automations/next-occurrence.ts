import { DateTime } from 'luxon';
import { rrulestr } from 'rrule';

/** Wall-clock fields of an instant in a zone, as a UTC date (rrule computes in "floating" time this way). */
const floating = (at: Date, zone: string) => {
  const local = DateTime.fromJSDate(at, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
};

/**
 * The first occurrence of an RRULE strictly after `after`, the rule's wall-clock times (e.g. BYHOUR=9) read in
 * `zone` and converted by luxon, so "every day at 09:00 in Paris" stays at 09:00 across daylight-saving
 * changes. `dtstart` anchors the series (intervals count from it). Null when the rule has no more occurrences.
 */
export function nextOccurrence(rule: string, zone: string, dtstart: Date, after: Date): Date | null {
  const series = rrulestr(rule, { dtstart: floating(dtstart, zone) });
  const next = series.after(floating(after, zone), false);
  if (!next) return null;
  return DateTime.fromObject(
    {
      year: next.getUTCFullYear(),
      month: next.getUTCMonth() + 1,
      day: next.getUTCDate(),
      hour: next.getUTCHours(),
      minute: next.getUTCMinutes(),
      second: next.getUTCSeconds(),
    },
    { zone },
  ).toJSDate();
}

/** A rule the dialer accepts: parses, and has at least one occurrence after `dtstart`. */
export function isValidRule(rule: string, zone: string): boolean {
  try {
    const now = new Date();
    return nextOccurrence(rule, zone, now, now) !== null;
  } catch {
    return false;
  }
}
