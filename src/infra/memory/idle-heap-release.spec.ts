import { Logger } from '@nestjs/common';
import { IDLE_HEAP_RELEASE, IdleHeapRelease } from './idle-heap-release';

const MB = 1024 * 1024;
const { sampleEveryMs, idleForMs, idleBelow, growthBytes } = IDLE_HEAP_RELEASE;
const IDLE = idleBelow / 2;
const BUSY = 0.5;
/** The readings it takes to span the idle wait, each one covering the time since the previous. */
const IDLE_READINGS = idleForMs / sampleEveryMs;

/**
 * A process whose clock moves only when the spec says: each `reading` advances it by one sampling interval and
 * answers with the given busy share and resident memory; a collection drops the memory to `afterCollect`.
 */
function processUnderTest(startRss = 250 * MB, afterCollect = 150 * MB) {
  let now = 0;
  let rss = startRss;
  let utilization = IDLE;
  const collections: number[] = [];
  const release = new IdleHeapRelease({
    now: () => now,
    sample: () => ({ utilization, rss }),
    collect: async () => {
      collections.push(now);
      rss = afterCollect;
    },
  });
  return {
    collections,
    setRss: (bytes: number) => (rss = bytes),
    /** `count` readings at `busy`, one interval apart. */
    readings: async (count: number, busy: number) => {
      for (let i = 0; i < count; i++) {
        now += sampleEveryMs;
        utilization = busy;
        await release.tick();
      }
    },
  };
}

describe('IdleHeapRelease', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('releases once start-up is followed by the idle wait, and not a reading before', async () => {
    const p = processUnderTest();
    await p.readings(IDLE_READINGS - 1, IDLE);
    expect(p.collections).toEqual([]);
    await p.readings(1, IDLE);
    expect(p.collections).toEqual([idleForMs]);
  });

  it('waits for an unbroken idle stretch: one busy reading starts the wait again', async () => {
    const p = processUnderTest();
    await p.readings(IDLE_READINGS - 1, IDLE);
    await p.readings(1, BUSY);
    await p.readings(IDLE_READINGS - 1, IDLE);
    expect(p.collections).toEqual([]);
    await p.readings(1, IDLE);
    expect(p.collections).toHaveLength(1);
  });

  it('counts a reading at the threshold as busy', async () => {
    const p = processUnderTest();
    await p.readings(IDLE_READINGS * 3, idleBelow);
    expect(p.collections).toEqual([]);
  });

  it('releases again only after the memory grew by the bound since the last release, and an idle wait', async () => {
    const p = processUnderTest(250 * MB, 150 * MB);
    await p.readings(IDLE_READINGS, IDLE);
    expect(p.collections).toHaveLength(1);

    // Idle long after, but grown by less than the bound: nothing to give back.
    p.setRss(150 * MB + growthBytes - 1);
    await p.readings(IDLE_READINGS * 3, IDLE);
    expect(p.collections).toHaveLength(1);

    // A burst grows the heap; the next idle stretch gives it back once it has lasted the wait.
    await p.readings(5, BUSY);
    p.setRss(150 * MB + growthBytes);
    await p.readings(IDLE_READINGS - 1, IDLE);
    expect(p.collections).toHaveLength(1);
    await p.readings(1, IDLE);
    expect(p.collections).toHaveLength(2);
  });

  it('never releases a busy process, however much it grew', async () => {
    const p = processUnderTest(900 * MB);
    await p.readings(IDLE_READINGS * 5, BUSY);
    expect(p.collections).toEqual([]);
  });

  it('tries again after the next idle wait when a collection fails', async () => {
    let attempts = 0;
    let now = 0;
    const release = new IdleHeapRelease({
      now: () => now,
      sample: () => ({ utilization: IDLE, rss: 400 * MB }),
      collect: async () => {
        attempts++;
        throw new Error('inspector unavailable');
      },
    });
    for (let i = 0; i < IDLE_READINGS * 2; i++) {
      now += sampleEveryMs;
      await release.tick();
    }
    expect(attempts).toBe(2);
  });
});
