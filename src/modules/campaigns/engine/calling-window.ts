import { DateTime } from 'luxon';
import { CallingWindow, WEEKDAYS } from '../campaign.entity';

const parseTime = (hhmm: string) => {
  const [hour, minute] = hhmm.split(':').map(Number);
  return { hour, minute };
};

/**
 * The first instant at or after `at` when the window is open in `zone`: `at` itself when open now. Wall-clock
 * times are resolved by luxon in the zone, so a window follows daylight-saving changes (an opening that falls
 * in a skipped hour moves forward with the clock). A window whose end is not after its start runs past
 * midnight into the next day. No window: always open.
 */
export function windowOpensAt(window: CallingWindow | null, zone: string, at: Date): Date {
  if (!window) return at;
  const now = DateTime.fromJSDate(at, { zone });
  const start = parseTime(window.start);
  const end = parseTime(window.end);
  const overnight = end.hour * 60 + end.minute <= start.hour * 60 + start.minute;
  // From yesterday (an overnight window opened then may still be open) through a full week ahead.
  for (let offset = -1; offset <= 7; offset++) {
    const day = now.startOf('day').plus({ days: offset });
    if (!window.days.includes(WEEKDAYS[day.weekday - 1])) continue;
    const opens = day.set({ hour: start.hour, minute: start.minute });
    const closes = (overnight ? day.plus({ days: 1 }) : day).set({ hour: end.hour, minute: end.minute });
    if (now < opens) return opens.toJSDate();
    if (now < closes) return at;
  }
  // Unreachable for a window with at least one day; kept total for safety.
  return now.plus({ days: 7 }).toJSDate();
}
