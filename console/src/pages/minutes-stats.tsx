import type { Schemas } from '../api';
import { Tip } from '../ui';

const round2 = (mins: number) => Math.round(mins * 100) / 100;

/**
 * Minutes talked next to minutes billed this period, so the two never disagree without a word: billing rounds
 * each call up to the started minute (`startedMinutes` in src/modules/usage/allocation.ts; docs/console.md, "Usage").
 */
export function MinutesStats({ usage }: { usage: Schemas['CurrentPeriodUsageResponse'] }) {
  return (
    <>
      <div>
        <dt>Minutes talked this period</dt>
        <dd data-testid="minutes-talked">{round2(usage.totalMins)} min</dd>
      </div>
      <div>
        <dt>
          Minutes billed this period{' '}
          <Tip label="How billed minutes are rounded">
            Each call is billed per started minute: its talk time is rounded up to the next whole minute (a call of 1
            min 5 s bills 2 min). Calls covered outside the balance are not counted here.
          </Tip>
        </dt>
        <dd data-testid="minutes-billed">{round2(usage.deductedMins)} min</dd>
      </div>
    </>
  );
}
