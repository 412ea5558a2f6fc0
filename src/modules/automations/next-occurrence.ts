import { DateTime } from 'luxon';
import { Frequency, RRule, rrulestr } from 'rrule';

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

/** How far ahead a new rule must have an occurrence (docs/operations.md, "Recurring schedules"). */
export const RULE_HORIZON_DAYS = 366;
/** Frequencies that would place campaigns seconds or minutes apart: a schedule calls an audience, not a clock. */
const REFUSED_FREQUENCIES = new Set([Frequency.SECONDLY, Frequency.MINUTELY]);

/**
 * What is wrong with a rule on its face, before any occurrence is computed (null: nothing): it must parse as an
 * RFC 5545 RRULE, repeat hourly or slower, and name at most one second and one minute (a BYSECOND or BYMINUTE
 * list would bring back, under an hourly or daily frequency, the sub-hourly series the frequency rule refuses: 60
 * BYMINUTE values are a campaign a minute).
 */
export function ruleProblem(rule: string): string | null {
  let parsed: unknown;
  try {
    parsed = rrulestr(rule);
  } catch {
    return 'rrule must be an RFC 5545 rule';
  }
  if (!(parsed instanceof RRule)) return 'rrule must be one RRULE (no sets, RDATE or EXDATE)';
  const { freq, bysecond, byminute } = parsed.origOptions;
  if (freq === undefined) return 'rrule must have a FREQ';
  if (REFUSED_FREQUENCIES.has(freq)) {
    return 'rrule must repeat at most hourly (FREQ=SECONDLY and FREQ=MINUTELY are refused)';
  }
  if (Array.isArray(bysecond) && bysecond.length > 1) return 'rrule must name at most one BYSECOND value';
  if (Array.isArray(byminute) && byminute.length > 1) return 'rrule must name at most one BYMINUTE value';
  return null;
}
