import { performance } from 'node:perf_hooks';
import type { HttpClient } from '../test/support/http';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * `requests` GETs of `route` from `concurrency` closed loops; prints p50/p95/p99/max and the rate, and returns the
 * sorted latencies (ms) for the caller's target.
 */
export async function measureGets(
  api: HttpClient,
  route: string,
  requests: number,
  concurrency: number,
): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const t0 = performance.now();
        const res = await api.get(route);
        latencies.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`GET ${route}: ${res.status}`);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const fmt = (p: number) => `${percentile(latencies, p).toFixed(1)} ms`;
  console.log(
    `GET ${route.padEnd(22)} p50 ${fmt(50)}  p95 ${fmt(95)}  p99 ${fmt(99)}  max ${fmt(100)}  ${(latencies.length / elapsed).toFixed(0)} req/s`,
  );
  return latencies;
}
