import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';

/**
 * When an idle process gives its heap back (docs/operations.md, "Memory"). V8 sizes its heap for the allocation
 * rate it last saw and keeps it: after a burst of requests it holds ~100 MB of freed pages in its pool and a young
 * generation at its cap, and a process that then goes idle allocates too little to ever start the major GC that
 * would return them. So after IDLE_FOR_MS under IDLE_BELOW busy, once the resident memory has grown by GROWTH_BYTES
 * since the last release, the process runs one memory-reducing GC. A shorter idle wait was measured and not kept:
 * 3 s released between the bursts of a live load, and the write routes then took 30-45 % more CPU regrowing the heap.
 */
export const IDLE_HEAP_RELEASE = {
  /** How often the event loop's busy share and the resident memory are read. */
  sampleEveryMs: 2_000,
  /** How long the event loop must have stayed under `idleBelow` busy, without a break. */
  idleForMs: 20_000,
  /** The event loop's busy share (0-1) under which a sample counts as idle. */
  idleBelow: 0.05,
  /** How much the resident memory must have grown since the last release (start-up counts as growth). */
  growthBytes: 64 * 1024 * 1024,
};

export type IdleHeapReleaseBounds = typeof IDLE_HEAP_RELEASE;

/** One reading: the event loop's busy share since the previous reading, and the process's resident memory. */
export interface ProcessSample {
  utilization: number;
  rss: number;
}

/** What the decision needs from the process; the spec gives its own clock, readings and collector. */
export interface IdleHeapReleaseDeps {
  now: () => number;
  sample: () => ProcessSample;
  /** Runs the memory-reducing GC; resolves once it is done. */
  collect: () => Promise<void>;
}

/**
 * The decision, one reading at a time (`tick`, which the timer of startIdleHeapRelease calls every `sampleEveryMs`):
 * release when the loop has been idle for `idleForMs` and the memory has grown by `growthBytes` since the last
 * release. The first release needs no growth measured: start-up itself grows the young generation to its cap.
 */
export class IdleHeapRelease {
  private readonly logger = new Logger(IdleHeapRelease.name);
  /** Since when every reading was idle; undefined after a busy one. */
  private idleSince?: number;
  private previousAt: number;
  /** The resident memory right after the last release; undefined before the first. */
  private releasedAt?: number;
  private collecting = false;

  constructor(
    private readonly deps: IdleHeapReleaseDeps,
    private readonly bounds: IdleHeapReleaseBounds = IDLE_HEAP_RELEASE,
  ) {
    this.previousAt = deps.now();
  }

  /** Takes one reading and releases when it is time; resolves once a release it started is done. */
  async tick(): Promise<void> {
    if (this.collecting) return;
    const now = this.deps.now();
    const { utilization, rss } = this.deps.sample();
    // A reading covers the time since the previous one: an idle one extends the idle stretch back to it.
    this.idleSince = utilization < this.bounds.idleBelow ? (this.idleSince ?? this.previousAt) : undefined;
    this.previousAt = now;
    if (this.idleSince === undefined || now - this.idleSince < this.bounds.idleForMs) return;
    if (this.releasedAt !== undefined && rss - this.releasedAt < this.bounds.growthBytes) return;
    this.collecting = true;
    try {
      await this.deps.collect();
      const after = this.deps.sample();
      this.releasedAt = after.rss;
      this.logger.debug(`Idle: heap released, resident ${mb(rss)} -> ${mb(after.rss)} MB`);
    } catch (error) {
      // Nothing is lost but memory; the next idle stretch tries again.
      this.logger.warn(`Idle heap release failed: ${(error as Error).message}`);
    } finally {
      this.collecting = false;
      this.idleSince = undefined;
      this.previousAt = this.deps.now();
    }
  }
}

/** Starts the readings of this process (unref'd: they never keep it alive); `stop` ends them. */
export function startIdleHeapRelease(bounds: IdleHeapReleaseBounds = IDLE_HEAP_RELEASE): { stop: () => void } {
  let previous = performance.eventLoopUtilization();
  const release = new IdleHeapRelease(
    {
      now: () => performance.now(),
      sample: () => {
        const current = performance.eventLoopUtilization();
        const { utilization } = performance.eventLoopUtilization(current, previous);
        previous = current;
        return { utilization, rss: process.memoryUsage.rss() };
      },
      collect: collectAllGarbage,
    },
    bounds,
  );
  const timer = setInterval(() => void release.tick(), bounds.sampleEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * A full, memory-reducing GC that also shrinks the young generation and returns V8's pooled pages to the system,
 * asked of the inspector's heap profiler, which needs no `--expose-gc` (a plain `gc()` is one full GC: it leaves the
 * young generation and the pooled pages resident). The in-process session is connected for this call only, so the
 * process carries no inspector session between releases, and is disconnected on the next tick, outside its own
 * callback.
 */
function collectAllGarbage(): Promise<void> {
  const session = new Session();
  session.connect();
  return new Promise<void>((resolve, reject) => {
    session.post('HeapProfiler.collectGarbage', (error) => {
      process.nextTick(() => session.disconnect());
      if (error) reject(error);
      else resolve();
    });
  });
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
