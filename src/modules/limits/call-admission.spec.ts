import type { AppConfig } from '../../infra/config/app-config';
import { LOCK_SPACES } from '../../infra/database/advisory-locks';
import { FakeDataSource, FakeTransaction } from '../../infra/testing/fake-data-source';
import { fakeOf } from '../../infra/testing/fake-of';
import { CallAdmission } from './call-admission';
import { CallCounts, CallCountsRepository, PoolCounts } from './call-counts.repository';
import { Limits, OrganizationLimitsRepository } from './organization-limits.repository';

describe('CallAdmission', () => {
  let limits: Limits;
  let counts: CallCounts;
  let pool: PoolCounts;
  let livePool: number;

  beforeEach(() => {
    limits = { maxConcurrentCalls: 10, inboundReserve: 0 };
    counts = { live: 0, queued: 0 };
    pool = { live: 0, mine: 0, organizations: 1 };
    livePool = 0;
  });

  const admission = (
    voice: { provider: 'simulator' | 'vapi' | 'retell'; pool?: number; retellPool?: number } = {
      provider: 'simulator',
    },
  ) =>
    new CallAdmission(
      fakeOf<CallCountsRepository>({
        live: () => Promise.resolve(counts.live),
        ofOrganization: () => Promise.resolve(counts),
        pool: () => Promise.resolve(pool),
        livePool: () => Promise.resolve(livePool),
      }),
      fakeOf<OrganizationLimitsRepository>({ find: () => Promise.resolve(limits) }),
      fakeOf<AppConfig>({
        voiceProvider: voice.provider,
        // Vapi's pool applies where the service holds Vapi's credentials.
        vapi: {
          maxConcurrentCalls: voice.pool ?? 0,
          ...(voice.provider === 'vapi' ? { apiKey: 'key', webhookSecret: 'secret' } : {}),
        } as AppConfig['vapi'],
        // Retell's pool applies where the service holds Retell's key.
        retell: {
          maxConcurrentCalls: voice.retellPool ?? 0,
          ...(voice.provider === 'retell' ? { apiKey: 'key' } : {}),
        } as AppConfig['retell'],
      }),
    );

  /** Runs `decide` in a fake transaction; its result and the advisory lock spaces it took, in order. */
  const locked = async <T>(decide: (tx: FakeTransaction['tx']) => Promise<T>) => {
    const db = new FakeDataSource();
    const result = await db.transaction(decide);
    return { result, spaces: db.transactions[0].statements.map((s) => s.params[0]) };
  };

  describe('outbound slots of an organization', () => {
    it('are its concurrency less its inbound reserve and its live calls, under its admission lock', async () => {
      limits = { maxConcurrentCalls: 10, inboundReserve: 2 };
      counts.live = 3;
      const { result, spaces } = await locked((tx) => admission().lockFreeOutboundSlots(tx, 'org-1'));
      expect(result).toBe(5);
      expect(spaces).toEqual([LOCK_SPACES.admission]);
    });

    it('are never negative: inbound calls beyond the limit are never refused, so live may exceed it', async () => {
      limits = { maxConcurrentCalls: 2, inboundReserve: 1 };
      counts.live = 4;
      expect((await locked((tx) => admission().lockFreeOutboundSlots(tx, 'org-1'))).result).toBe(0);
      expect(await admission().freeOutboundSlots('org-1')).toBe(0);
    });

    it('as a hint, without the lock, count the same', async () => {
      limits = { maxConcurrentCalls: 4, inboundReserve: 1 };
      counts = { live: 1, queued: 7 };
      expect(await admission().freeOutboundSlots('org-1')).toBe(2);
      expect(await admission().snapshot('org-1')).toEqual({
        maxConcurrentCalls: 4,
        inboundReserve: 1,
        liveCalls: 1,
        queuedCalls: 7,
      });
    });
  });

  describe("the voice platform's shared pool", () => {
    /** Free slots of org-1 in a pool of 10, decided under the pool's lock. */
    const poolSlots = async () =>
      (await locked((tx) => admission({ provider: 'vapi', pool: 10 }).lockFreePoolSlots(tx, 'org-1', 'vapi'))).result;

    it('is unlimited, and takes no lock, without a pool (the simulator)', async () => {
      const { result, spaces } = await locked((tx) => admission().lockFreePoolSlots(tx, 'org-1', 'vapi'));
      expect(result).toBe(Infinity);
      expect(spaces).toEqual([]);
      expect(admission().poolSize('vapi')).toBeNull();
      expect(admission().poolSize('simulator')).toBeNull();
      expect(await admission().freePoolSlots('vapi')).toBe(0);
    });

    it("gives an organization what is free, under the pool's lock", async () => {
      pool = { live: 6, mine: 2, organizations: 1 };
      const { result, spaces } = await locked((tx) =>
        admission({ provider: 'vapi', pool: 10 }).lockFreePoolSlots(tx, 'org-1', 'vapi'),
      );
      expect(result).toBe(4);
      expect(spaces).toEqual([LOCK_SPACES.voicePlatformPool]);
    });

    it('holds an organization to its fair share (rounded up) while others wait or call', async () => {
      pool = { live: 4, mine: 4, organizations: 3 };
      expect(await poolSlots()).toBe(0);
      pool = { live: 5, mine: 1, organizations: 3 };
      expect(await poolSlots()).toBe(3);
    });

    it('never gives more than the pool has, nor less than nothing', async () => {
      pool = { live: 9, mine: 0, organizations: 2 };
      expect(await poolSlots()).toBe(1);
      pool = { live: 12, mine: 0, organizations: 0 };
      expect(await poolSlots()).toBe(0);
    });

    it('as a hint, is what the pool has free', async () => {
      livePool = 7;
      expect(await admission({ provider: 'vapi', pool: 10 }).freePoolSlots('vapi')).toBe(3);
      livePool = 11;
      expect(await admission({ provider: 'vapi', pool: 10 }).freePoolSlots('vapi')).toBe(0);
    });

    it("is each platform's own: Retell's sized by RETELL_MAX_CONCURRENT_CALLS, locked apart from Vapi's", async () => {
      const retell = admission({ provider: 'retell', retellPool: 20 });
      expect(retell.poolSize('retell')).toBe(20);
      expect(retell.poolSize('vapi')).toBeNull();
      pool = { live: 15, mine: 2, organizations: 2 };
      const { result, spaces } = await locked((tx) => retell.lockFreePoolSlots(tx, 'org-1', 'retell'));
      expect(result).toBe(5);
      expect(spaces).toEqual([LOCK_SPACES.voicePlatformPool]);
      expect(await locked((tx) => retell.lockFreePoolSlots(tx, 'org-1', 'vapi'))).toEqual({
        result: Infinity,
        spaces: [],
      });
    });
  });
});
