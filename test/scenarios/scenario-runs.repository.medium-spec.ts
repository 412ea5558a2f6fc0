import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/infra/database/tx';
import { ScenarioRun } from '../../src/modules/scenarios/scenario-run.entity';
import { queuedRun, RunOutcome, ScenarioRunsRepository } from '../../src/modules/scenarios/scenario-runs.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The moves of a scenario run against PostgreSQL: many workers claiming one run (a lost job enqueued again, two
 * sweepers) play it once; it ends once; the sweeper finds what a lost job or worker left; an organization's load
 * counts runs in flight and those of the last minute.
 */
describe('ScenarioRunsRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let runs: ScenarioRunsRepository;
  const organizationId = randomUUID();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([ScenarioRun]));
    runs = new ScenarioRunsRepository(dataSource);
  });
  afterAll(() => close());

  const queue = async (count = 1): Promise<string[]> => {
    const ids = Array.from({ length: count }, () => randomUUID());
    await inTransaction(dataSource, (tx) =>
      runs.insertMany(
        tx,
        ids.map((id) =>
          queuedRun({
            id,
            organizationId,
            livemode: false,
            scenarioId: randomUUID(),
            caseId: randomUUID(),
            caseVersion: 1,
          }),
        ),
      ),
    );
    return ids;
  };
  const outcome: RunOutcome = {
    status: 'passed',
    transcript: [{ role: 'user', text: 'hi' }],
    expectations: [{ type: 'handOff', expected: false, passed: true, seen: false }],
    durationMs: 12,
    usage: null,
    error: null,
  };
  const age = (id: string, seconds: number) =>
    dataSource.query(`UPDATE scenario_runs SET updated_at = now() - make_interval(secs => $2) WHERE id = $1`, [
      id,
      seconds,
    ]);

  it('ten claims of one queued run at once: exactly one plays it', async () => {
    const [id] = await queue();
    const claims = await Promise.all(Array.from({ length: 10 }, () => runs.claim(id)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)!.status).toBe('running');
  });

  it('a run ends once: a second finish (a replayed worker) changes nothing', async () => {
    const [id] = await queue();
    await runs.claim(id);
    const ended = await inTransaction(dataSource, (tx) => runs.finish(tx, id, outcome));
    expect(ended).toMatchObject({ status: 'passed', durationMs: 12, expectations: outcome.expectations });
    const again = await inTransaction(dataSource, (tx) =>
      runs.finish(tx, id, { ...outcome, status: 'error', error: 'late' }),
    );
    expect(again).toBeNull();
    expect(await runs.claim(id)).toBeNull();
  });

  it('the sweeper finds runs queued past 30 s and running past 5 minutes, and a stale running run is claimed again', async () => {
    const [fresh, oldQueued, running, oldRunning] = await queue(4);
    await runs.claim(running);
    await runs.claim(oldRunning);
    await age(oldQueued, 31);
    await age(running, 200);
    await age(oldRunning, 301);
    const stale = await runs.stale(100);
    expect(stale).toEqual(expect.arrayContaining([oldQueued, oldRunning]));
    expect(stale).not.toContain(fresh);
    expect(stale).not.toContain(running);
    expect(await runs.claim(running)).toBeNull();
    expect(await runs.claim(oldRunning)).toMatchObject({ status: 'running' });
  });

  it("an organization's load: runs queued or running, and runs started in the last minute", async () => {
    const before = await inTransaction(dataSource, (tx) => runs.load(tx, organizationId));
    const [a, b] = await queue(2);
    await runs.claim(a);
    await inTransaction(dataSource, (tx) => runs.finish(tx, a, outcome));
    const after = await inTransaction(dataSource, (tx) => runs.load(tx, organizationId));
    expect(after.lastMinute - before.lastMinute).toBe(2);
    expect(after.inFlight - before.inFlight).toBe(1);
    await dataSource.query(`UPDATE scenario_runs SET created_at = now() - interval '61 seconds' WHERE id = $1`, [b]);
    const later = await inTransaction(dataSource, (tx) => runs.load(tx, organizationId));
    expect(after.lastMinute - later.lastMinute).toBe(1);
    expect(later.inFlight).toBe(after.inFlight);
  });
});
