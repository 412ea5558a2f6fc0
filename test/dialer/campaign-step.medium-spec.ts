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

  /** The step's dial of `entryIds` (attempt `attempt` of each), each to a new call; the calls' ids. */
  async function dial(campaignId: string, entryIds: readonly string[], attempt = 1): Promise<string[]> {
    const dialled = entryIds.map((entryId) => ({ entryId, callId: randomUUID(), to: '+15550001000', attempt }));
    await entries.dial(dataSource.manager, { id: campaignId, organizationId: org }, dialled);
    return dialled.map((d) => d.callId);
  }

  /** The outcome of a finished call on its entry. */
  const outcome = (id: string, callId: string, status: 'done' | 'pending', endedReason: string) => ({
    id,
    callId,
    status,
    skipReason: null,
    skipDetail: null,
    nextAttemptAt: new Date(),
    blocked: false,
    endedReason,
  });

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
    const { id, entryIds } = await campaignWith(1);
    const [entryId] = entryIds;
    const [callId] = await dial(id, [entryId]);
    await entries.applyOutcomes(dataSource.manager, [outcome(entryId, callId, 'done', 'customer-ended-call')]);
    // A second step that read the same finished call (or a redelivered outcome) changes nothing.
    await entries.applyOutcomes(dataSource.manager, [outcome(entryId, callId, 'pending', 'customer-busy')]);
    const [row] = await dataSource.query(
      'SELECT status, last_ended_reason, attempts FROM campaign_entries WHERE id = $1',
      [entryId],
    );
    expect(row).toEqual({ status: 'done', last_ended_reason: 'customer-ended-call', attempts: 1 });
  });

  it("a dial records each entry's attempt with its call and moves the entry to it, in one statement", async () => {
    const { id, entryIds } = await campaignWith(2);
    const callIds = await dial(id, entryIds);
    const attempts = await dataSource.query(
      `SELECT entry_id, campaign_id, organization_id, attempt, call_id, ended_reason FROM campaign_attempts
        WHERE campaign_id = $1 ORDER BY attempt, call_id`,
      [id],
    );
    expect(attempts).toEqual(
      entryIds
        .map((entryId, i) => ({
          entry_id: entryId,
          campaign_id: id,
          organization_id: org,
          attempt: 1,
          call_id: callIds[i],
          ended_reason: null,
        }))
        .sort((a, b) => a.call_id.localeCompare(b.call_id)),
    );
    const moved = await dataSource.query(
      'SELECT id, status, attempts, current_call_id FROM campaign_entries WHERE campaign_id = $1 ORDER BY id',
      [id],
    );
    expect(moved).toEqual(
      entryIds
        .map((entryId, i) => ({ id: entryId, status: 'in_progress', attempts: 1, current_call_id: callIds[i] }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('a second dial of the same attempt fails and writes nothing: an attempt is recorded once', async () => {
    const { id, entryIds } = await campaignWith(2);
    const [first] = await dial(id, [entryIds[0]]);
    // The same attempt of the first entry beside the second entry's first: the statement fails as a whole.
    await expect(dial(id, entryIds)).rejects.toThrow('ux_campaign_attempts_entry_attempt');
    const rows = await dataSource.query(
      `SELECT e.id, e.status, e.current_call_id, (SELECT count(*)::int FROM campaign_attempts a WHERE a.entry_id = e.id) AS n
         FROM campaign_entries e WHERE e.campaign_id = $1`,
      [id],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: entryIds[0], status: 'in_progress', current_call_id: first, n: 1 },
        { id: entryIds[1], status: 'pending', current_call_id: null, n: 0 },
      ]),
    );
  });

  it("an outcome gives its call's attempt the call's ended reason, with the entry's outcome", async () => {
    const { id, entryIds } = await campaignWith(2);
    const callIds = await dial(id, entryIds);
    await entries.applyOutcomes(dataSource.manager, [outcome(entryIds[0], callIds[0], 'pending', 'customer-busy')]);
    const attempts = await dataSource.query(
      'SELECT call_id, ended_reason FROM campaign_attempts WHERE campaign_id = $1',
      [id],
    );
    expect(attempts).toEqual(
      expect.arrayContaining([
        { call_id: callIds[0], ended_reason: 'customer-busy' },
        { call_id: callIds[1], ended_reason: null },
      ]),
    );
    const [entry] = await dataSource.query('SELECT status, last_ended_reason FROM campaign_entries WHERE id = $1', [
      entryIds[0],
    ]);
    expect(entry).toEqual({ status: 'pending', last_ended_reason: 'customer-busy' });
  });

  it("a campaign's progress: an open entry while one is pending or in progress, and the ones in progress counted", async () => {
    const { id, entryIds } = await campaignWith(3);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: true, inProgress: 0 });
    const callIds = await dial(id, entryIds.slice(0, 2));
    await entries.skip(dataSource.manager, [{ id: entryIds[2], reason: 'DO_NOT_CALL', detail: 'on the list' }]);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: true, inProgress: 2 });
    await entries.applyOutcomes(dataSource.manager, [
      outcome(entryIds[0], callIds[0], 'done', 'customer-ended-call'),
      outcome(entryIds[1], callIds[1], 'done', 'customer-ended-call'),
    ]);
    expect(await entries.progress(dataSource.manager, id)).toEqual({ open: false, inProgress: 0 });
  });

  it('only a pending entry is dialled or skipped: one in progress stays as it is', async () => {
    const { id, entryIds } = await campaignWith(1);
    const [entryId] = entryIds;
    await dial(id, [entryId]);
    // A second dial of an entry already in progress (a repeated step) moves nothing either.
    await dial(id, [entryId], 2);
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
