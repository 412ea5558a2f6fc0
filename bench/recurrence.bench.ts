/**
 * Checking a recurrence rule that never matches (February 30th): how long the refusal takes and how long the
 * event loop was held meanwhile. Targets: answered within RULE_CHECK_BUDGET_MS plus a thread's restart (100 ms),
 * the event loop never held 50 ms (the rule is computed on the occurrence thread, stopped at the budget).
 * OccurrencesService alone, as the API's validation uses it, its thread warm as in a running service.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { OccurrencesService, RULE_CHECK_BUDGET_MS } from '../src/modules/automations/occurrences.service';

const EVERY_MINUTE = Array.from({ length: 60 }, (_, i) => i).join(',');
const NEVER = [
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
  `FREQ=HOURLY;BYMINUTE=${EVERY_MINUTE};BYMONTH=2;BYMONTHDAY=30`,
  'FREQ=WEEKLY;BYDAY=MO;BYMONTH=2;BYMONTHDAY=31',
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main() {
  const occurrences = new OccurrencesService();
  const now = new Date();
  // Warm: the thread loaded, as after the service's first question.
  await occurrences.next('FREQ=DAILY;BYHOUR=9', 'Europe/Paris', now, now, RULE_CHECK_BUDGET_MS);
  console.log(`rule                                              refused in (ms, worst of ${ROUNDS})  loop held (ms)`);
  try {
    for (const rule of NEVER) {
      let worst = 0;
      let held = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        const started = performance.now();
        const answer = await occurrences.next(rule, 'Europe/Paris', now, now, RULE_CHECK_BUDGET_MS).then(
          () => 'answered',
          () => 'refused',
        );
        worst = Math.max(worst, performance.now() - started);
        delay.disable();
        held = Math.max(held, delay.max / 1e6);
        if (answer !== 'refused') throw new Error(`${rule} was answered within the budget`);
        // The next question goes to a fresh thread, as quickly.
        await occurrences.next('FREQ=WEEKLY;BYDAY=MO', 'Europe/Paris', now, now, RULE_CHECK_BUDGET_MS);
      }
      console.log(`${rule.slice(0, 48).padEnd(50)}${worst.toFixed(1).padStart(8)}${held.toFixed(1).padStart(24)}`);
    }
  } finally {
    await occurrences.onModuleDestroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
