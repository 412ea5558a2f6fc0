import { TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';
import { CallsOrg } from '../calls/call-fixtures';

/**
 * `count` North American rows (`+1` and ten digits) sharing a prefix, each ending in the simulator outcome digit
 * `digit(i)` (docs/contracts/simulator.md).
 */
export function rows(prefix: string, count: number, digit: (i: number) => number = (i) => i % 10) {
  const width = 11 - prefix.length;
  return Array.from({ length: count }, (_, i) => ({ to: `${prefix}${String(i).padStart(width, '0')}${digit(i)}` }));
}

/** Creates and starts a campaign; returns its id. */
export async function startCampaign(org: CallsOrg, body: Record<string, unknown>): Promise<string> {
  const created = await org.api.post('/api/v1/campaigns', { name: 'Test', from: org.from, ...body });
  if (created.status !== 201) throw new Error(`create campaign: ${created.status} ${created.text}`);
  const started = await org.api.post(`/api/v1/campaigns/${created.body.data.id}/start`);
  if (started.status !== 200) throw new Error(`start campaign: ${started.status} ${started.text}`);
  return created.body.data.id;
}

/** Polls GET /campaigns/{id} until `done` holds (a benchmark polls less often: each read aggregates the entries). */
export async function waitForCampaign(
  org: CallsOrg,
  id: string,
  done: (c: any) => boolean,
  timeoutMs = 60_000,
  pollMs = 100,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await org.api.get(`/api/v1/campaigns/${id}`)).body.data;
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`campaign ${id} did not reach the expected state; last: ${JSON.stringify(last)}`);
}

/** Every entry of a campaign (all pages). */
export async function allEntries(org: CallsOrg, id: string): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await org.api.get(
      `/api/v1/campaigns/${id}/entries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    entries.push(...res.body.data);
    cursor = res.body.pagination.cursor;
  } while (cursor);
  return entries;
}

/** `HH:MM` (UTC) of now plus `minutes`. */
export const utcClock = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(11, 16);
export const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Runs a `count(*)::int AS n` query every 50 ms until stopped; resolves to the highest count seen. */
export function sampleMax(t: TestApp, sql: string, params: unknown[]): { stop: () => Promise<number> } {
  let max = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows: r } = await t.db.query(sql, params);
      max = Math.max(max, r[0].n);
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  // A test that fails before stop() leaves the loop running into the closed pool: its error is reported by stop()
  // or, when stop() never comes, dropped with the test that already failed, not thrown at the Jest worker.
  loop.catch(() => undefined);
  return {
    stop: async () => {
      running = false;
      await loop;
      return max;
    },
  };
}

/**
 * Brings a recurring schedule's next occurrence to a second from now and waits until a scheduler has handled it
 * (the schedule's next occurrence moved past it). Rules repeat at most hourly, so tests do not wait for the
 * rule's own time: a fixture written in the database, as a clock would.
 */
export async function occurNow(t: TestApp, scheduleId: string, timeoutMs = 30_000): Promise<void> {
  const { rows } = await t.db.query(
    `UPDATE recurring_schedules SET next_occurrence_at = now() + interval '1 second' WHERE id = $1
     RETURNING next_occurrence_at`,
    [scheduleId],
  );
  const forced = new Date(rows[0].next_occurrence_at).getTime();
  await waitUntil(
    `a scheduler to handle the occurrence of schedule ${scheduleId}`,
    async () => {
      const { rows: now } = await t.db.query('SELECT next_occurrence_at FROM recurring_schedules WHERE id = $1', [
        scheduleId,
      ]);
      return new Date(now[0].next_occurrence_at).getTime() > forced;
    },
    timeoutMs,
  );
}
