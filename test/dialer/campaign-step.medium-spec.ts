import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Call } from '../../src/modules/calls/call.entity';
import { CampaignAttemptsRepository } from '../../src/modules/campaigns/campaign-attempts.repository';
import { CampaignEntriesRepository } from '../../src/modules/campaigns/campaign-entries.repository';
import { CampaignEntry } from '../../src/modules/campaigns/campaign-entry.entity';
import { Campaign } from '../../src/modules/campaigns/campaign.entity';
import { CampaignsRepository } from '../../src/modules/campaigns/campaigns.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * A campaign step's locks and conditional updates against real PostgreSQL: one engine steps a campaign at a time
 * (its row lock, skipped by the others), concurrent steps never claim the same due entry, a status moves only
 * along the transition table, and an entry's outcome lands once, on an entry still in progress. Each test fails when its lock or condition is taken out.
 */
describe('campaign step (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let campaigns: CampaignsRepository;
  let entries: CampaignEntriesRepository;
  const org = randomUUID();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([Campaign, CampaignEntry, Call]));
    campaigns = new CampaignsRepository(dataSource);
    entries = new CampaignEntriesRepository(dataSource);
  });
  afterAll(() => close());

  /** A running campaign with `n` due pending entries. */
  async function campaignWith(n: number): Promise<{ id: string; entryIds: string[] }> {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO campaigns (id, organization_id, name, status, call_from, audience)
       VALUES ($1, $2, 'Step', 'running', '+15550000001', '{"rows": []}')`,
      [id, org],
    );
    const entryIds = Array.from({ length: n }, () => randomUUID());
    await entries.insertMany(
      dataSource.manager,
      id,
      org,
      entryIds.map((entryId, i) => ({
        id: entryId,
        to: `+1555000${String(1000 + i)}`,
        contactId: null,
        variableValues: null,
        timeZone: 'UTC',
      })),
    );
    return { id, entryIds };
  }

  /**
   * Runs `first` in a transaction and, while it is still open, `second` in another; returns both results.
   * `second` must not wait on `first`'s locks (a skip-locked read): a statement that waits times the test out.
   */
  async function whileOpen<A, B>(
    first: (m: EntityManager) => Promise<A>,
    second: (m: EntityManager) => Promise<B>,
  ): Promise<[A, B]> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let a!: A;
    const outer = dataSource.transaction(async (m) => {
      a = await first(m);
      await held;
    });
    // Wait until the first transaction holds what it took.
    while (a === undefined) await new Promise((r) => setTimeout(r, 5));
    try {
      const b = await dataSource.transaction(second);
      return [a, b];
    } finally {
      release();
      await outer;
    }
  }

  it('one engine steps a campaign at a time: its row lock makes the others skip it', async () => {
    const { id } = await campaignWith(1);
    const [mine, other] = await whileOpen(
      (m) => campaigns.lock(m, id, true),
      (m) => campaigns.lock(m, id, true),
    );
    expect(mine?.id).toBe(id);
    expect(other).toBeNull();
    // Committed, the campaign is free again.
    expect((await dataSource.transaction((m) => campaigns.lock(m, id, true)))?.id).toBe(id);
  });

  it('concurrent steps claim disjoint due entries', async () => {
    const { id, entryIds } = await campaignWith(3);
    const [first, second] = await whileOpen(
      (m) => entries.due(m, id, 2),
      (m) => entries.due(m, id, 10),
    );
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect([...first, ...second].map((e) => e.id).sort()).toEqual([...entryIds].sort());
  });

  it('a status moves only along the transition table: a completed campaign never runs again', async () => {
    const { id } = await campaignWith(0);
    await dataSource.transaction((m) => campaigns.setStatus(m, id, 'completed'));
    await expect(dataSource.transaction((m) => campaigns.setStatus(m, id, 'running'))).rejects.toThrow(
      'cannot move to running',
    );
    const [row] = await dataSource.query('SELECT status FROM campaigns WHERE id = $1', [id]);
    expect(row.status).toBe('completed');
  });

  it('an outcome lands once, on an entry still in progress', async () => {
    const { entryIds } = await campaignWith(1);
    const [entryId] = entryIds;
    await entries.markDialled(dataSource.manager, [{ entryId, callId: randomUUID() }]);
    const outcome = (status: 'done' | 'pending', endedReason: string) => ({
      id: entryId,
      status,
      skipReason: null,
      skipDetail: null,
      nextAttemptAt: new Date(),
      blocked: false,
      endedReason,
    });
    await entries.applyOutcomes(dataSource.manager, [outcome('done', 'customer-ended-call')]);
    // A second step that read the same finished call (or a redelivered outcome) changes nothing.
    await entries.applyOutcomes(dataSource.manager, [outcome('pending', 'customer-busy')]);
    const [row] = await dataSource.query(
      'SELECT status, last_ended_reason, attempts FROM campaign_entries WHERE id = $1',
      [entryId],
    );
    expect(row).toEqual({ status: 'done', last_ended_reason: 'customer-ended-call', attempts: 1 });
  });

  it("a campaign's progress: an open entry while one is pending or in progress, and the ones in progress counted", async () => {
    const { id, entryIds } = await campaignWith(3);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: true, inProgress: 0 });
    await entries.markDialled(dataSource.manager, [
      { entryId: entryIds[0], callId: randomUUID() },
      { entryId: entryIds[1], callId: randomUUID() },
    ]);
    await entries.skip(dataSource.manager, [{ id: entryIds[2], reason: 'DO_NOT_CALL', detail: 'on the list' }]);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: true, inProgress: 2 });
    const done = (entryId: string) => ({
      id: entryId,
      status: 'done' as const,
      skipReason: null,
      skipDetail: null,
      nextAttemptAt: new Date(),
      blocked: false,
      endedReason: 'customer-ended-call',
    });
    await entries.applyOutcomes(dataSource.manager, [done(entryIds[0]), done(entryIds[1])]);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: false, inProgress: 0 });
  });

  it('only a pending entry is dialled or skipped: one in progress stays as it is', async () => {
    const { entryIds } = await campaignWith(1);
    const [entryId] = entryIds;
    await entries.markDialled(dataSource.manager, [{ entryId, callId: randomUUID() }]);
    // A second dial of an entry already in progress (a repeated step) changes nothing either.
    await entries.markDialled(dataSource.manager, [{ entryId, callId: randomUUID() }]);
    await entries.skip(dataSource.manager, [{ id: entryId, reason: 'DO_NOT_CALL', detail: 'on the list' }]);
    const [row] = await dataSource.query('SELECT status, attempts, skip_reason FROM campaign_entries WHERE id = $1', [
      entryId,
    ]);
    expect(row).toEqual({ status: 'in_progress', attempts: 1, skip_reason: null });
  });

  it("a number's calls today are counted from midnight in the given zone, for the world's outbound calls only", async () => {
    const zone = 'America/New_York';
    const [from, other] = ['+14155550700', '+14155550701'];
    const call = (values: { from?: string; org?: string; livemode?: boolean; direction?: string; at: string }) =>
      dataSource.query(
        `INSERT INTO calls (id, organization_id, livemode, status, direction, call_from, call_to, created_at)
         VALUES ($1, $2, $3, 'completed', $4, $5, '+14155550799', ${values.at})`,
        [randomUUID(), values.org ?? org, values.livemode ?? true, values.direction ?? 'outbound', values.from ?? from],
      );
    const midnight = `date_trunc('day', now() AT TIME ZONE '${zone}') AT TIME ZONE '${zone}'`;
    await call({ at: `${midnight} - interval '1 second'` }); // yesterday, there
    await call({ at: midnight });
    await call({ at: 'now()' });
    await call({ from: other, at: 'now()' });
    await call({ org: randomUUID(), at: 'now()' });
    await call({ livemode: false, at: 'now()' });
    await call({ direction: 'inbound', at: 'now()' });
    const counted = await new CampaignAttemptsRepository().callsFromToday(
      dataSource.manager,
      { organizationId: org, livemode: true },
      [from, other, '+14155550702'],
      zone,
    );
    expect(Object.fromEntries(counted)).toEqual({ [from]: 2, [other]: 1 });
  });
});
