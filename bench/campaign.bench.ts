/*
 * Campaign benchmark (issue "The dialer"): one campaign of BENCH_ENTRIES (default 10,000) entries through the
 * engine on one app instance (api, worker and scheduler roles), the simulator with short calls. Prints dials per
 * second, the highest number of live calls sampled every 50 ms against the cap, where a slot's time goes (the
 * medians of a call's stages, from the rows' own timestamps), and the PostgreSQL rows and Redis bytes (queue keys of
 * this run) per entry.
 */
import { loadavg } from 'node:os';
import Redis from 'ioredis';
import globalSetup from '../test/support/global-setup';
import { QueueName } from '../src/infra/queue/queue-names';
import { TEST_REDIS_URL } from '../test/support/databases';
import { queueBytes } from '../test/support/queue-bytes';
import { startTestApp } from '../test/support/test-app';
import { callingOrg } from '../test/calls/call-fixtures';
import { rows, sampleMax, startCampaign, waitForCampaign } from '../test/dialer/campaign-fixtures';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const CAP = Number(process.env.BENCH_CAP ?? 100);
const RING_MS = 50;
const CALL_MS = 500;

/** Redis bytes of this run's queue keys, in all and per queue (every hash field counted: SAMPLES 0). */
async function redisBytes(prefix: string): Promise<{ total: number; perQueue: string }> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const perQueue: string[] = [];
    for (const queue of Object.values(QueueName)) {
      const bytes = await queueBytes(redis, `${prefix}:${queue}:`);
      if (bytes) perQueue.push(`${queue} ${Math.round(bytes / ENTRIES)}`);
    }
    return { total: await queueBytes(redis, `${prefix}:`), perQueue: perQueue.join(', ') };
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  await globalSetup();
  const t = await startTestApp({
    env: { SIMULATOR_RING_MS: String(RING_MS), SIMULATOR_CALL_MS: String(CALL_MS) },
  });
  try {
    const org = await callingOrg(t, 100_000);
    await t.admin.post(`/admin/v1/organizations/${org.id}/limits`, { maxConcurrentCalls: CAP });
    const digits = Math.max(3, String(ENTRIES - 1).length);
    const prefix = `+1415${'5'.repeat(10 - 4 - digits)}`;
    const started = Date.now();
    const id = await startCampaign(org, {
      audience: { rows: rows(prefix, ENTRIES, (i) => i % 7) },
      maxConcurrent: CAP,
    });
    const created = Date.now();
    const sampler = sampleMax(
      t,
      `SELECT count(*)::int AS n FROM calls WHERE organization_id = $1 AND status = 'processing'`,
      [org.id],
    );
    await waitForCampaign(org, id, (c) => c.status === 'completed', 30 * 60_000, 1000);
    const finishedAt = Date.now();
    const maxLive = await sampler.stop();
    const { rows: counts } = await t.db.query(
      `SELECT (SELECT count(*) FROM campaign_entries WHERE campaign_id = $1)::int AS entries,
              (SELECT count(*) FROM campaign_attempts WHERE campaign_id = $1)::int AS attempts,
              (SELECT count(*) FROM calls WHERE campaign_id = $1)::int AS calls,
              (SELECT count(*) FROM outbox_events WHERE organization_id = $2)::int AS events,
              (SELECT count(*) FROM minute_ledger WHERE organization_id = $2)::int
                + (SELECT count(*) FROM call_reservations WHERE organization_id = $2)::int AS ledger`,
      [id, org.id],
    );
    const c = counts[0];
    // A slot of the cap is held from the step that creates its call until the step that records the call's end
    // (the entry's last update): the stages in between, each a median over the campaign's calls, in ms.
    const { rows: stages } = await t.db.query(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.dispatched_at - c.created_at)) * 1000 AS dispatch,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.ended_at - c.dispatched_at)) * 1000 AS live,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY (c.transcript->0->>'timestamp')::float8 - $2
                - extract(epoch FROM c.dispatched_at) * 1000) AS placed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM o.relayed_at - c.ended_at)) * 1000 AS relayed,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM o.processed_at - o.relayed_at)) * 1000 AS handled,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.updated_at - c.ended_at)) * 1000 AS recorded,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.updated_at - c.created_at)) * 1000 AS slot
         FROM calls c
         JOIN campaign_attempts a ON a.call_id = c.id
         JOIN campaign_entries e ON e.id = a.entry_id
         JOIN outbox_events o ON o.organization_id = c.organization_id AND o.type = 'call.ended'
          AND o.data->>'callId' = c.id::text
        WHERE c.campaign_id = $1`,
      [id, RING_MS],
    );
    const ms = (v: number | null) => (v === null ? '-' : Math.round(v));
    const st = stages[0];
    const rowsPerEntry = (c.entries + c.attempts + c.calls + c.events + c.ledger) / ENTRIES;
    const bytes = await redisBytes(t.queuePrefix);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `campaign of ${ENTRIES} entries (cap ${CAP}, calls of 500 ms): created+started in ${created - started} ms; ` +
        `all dialled and finished in ${((finishedAt - created) / 1000).toFixed(1)} s => ` +
        `${Math.round((c.calls * 1000) / (finishedAt - created))} dials/s; max live ${maxLive} (cap ${CAP})`,
    );
    console.log(
      `PostgreSQL rows per entry: ${rowsPerEntry.toFixed(2)} (entries ${c.entries}, attempts ${c.attempts}, ` +
        `calls ${c.calls}, outbox ${c.events}, ledger ${c.ledger}); Redis bytes per entry (queue keys left): ` +
        `${Math.round(bytes.total / ENTRIES)} (${bytes.perQueue}); load average at the end ${load}`,
    );
    console.log(
      `a slot's medians (ms): created -> dispatched ${ms(st.dispatch)}, dispatched -> ended ${ms(st.live)} ` +
        `(dispatched -> placed ${ms(st.placed)}, then the call's own ${RING_MS + CALL_MS}), ` +
        `ended -> call.ended relayed ${ms(st.relayed)}, relayed -> handled ${ms(st.handled)}, ` +
        `ended -> entry recorded ${ms(st.recorded)}; created -> entry recorded ${ms(st.slot)}`,
    );
  } finally {
    await t.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
