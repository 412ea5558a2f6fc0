import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Call } from '../../src/modules/calls/call.entity';
import { CallsRepository, NewCall } from '../../src/modules/calls/calls.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * A call's insert is written from the entity's columns without TypeORM's insert builder: the statement must be
 * the builder's own, parameter for parameter (each value through the driver's conversion, an absent one as
 * DEFAULT), and insert the same row.
 */
describe("a call's insert statement (PostgreSQL)", () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let calls: CallsRepository;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([Call]));
    calls = new CallsRepository(dataSource);
  });
  afterAll(() => close());

  const organizationId = randomUUID();
  const plain = (): NewCall => ({
    id: randomUUID(),
    organizationId,
    status: 'new',
    direction: 'outbound',
    callFrom: '+14155550100',
    callTo: '+14155550101',
    platform: 'simulator',
  });
  const full = (): NewCall => ({
    ...plain(),
    status: 'scheduled',
    scheduledAt: new Date('2030-01-02T03:04:05.678Z'),
    livemode: false,
    firstMessage: 'Hello',
    systemPrompt: null,
    toolIds: ['a', 'b'],
    tools: [],
    variableValues: { name: 'Ada' },
    voiceSettings: null,
    keyterms: ['x'],
    providerNumberId: 'pn_1',
  });

  function builders(...values: NewCall[]) {
    const [sql, params] = dataSource.manager
      .createQueryBuilder()
      .insert()
      .into(Call)
      .values(values.map((v) => dataSource.manager.create(Call, v)))
      .returning('*')
      .getQueryAndParameters();
    return { sql, params };
  }

  it.each([
    ['one call with defaults left out', () => [plain()]],
    ['one call with values of every kind', () => [full()]],
    ['several calls of different shapes', () => [plain(), full(), plain()]],
  ])("is TypeORM's insert builder's statement: %s", (_name, make) => {
    const values = make();
    expect(calls.insertStatement(dataSource.manager, ...values)).toEqual(builders(...values));
  });

  it('inserts the calls and returns their rows with the defaults', async () => {
    const values = [plain(), full()];
    const { sql, params } = calls.insertStatement(dataSource.manager, ...values);
    const rows: Record<string, unknown>[] = await dataSource.query(sql, params);
    const inserted = rows.map((row) => calls.entityOf(dataSource.manager, row));
    expect(inserted.map((c) => c.id)).toEqual(values.map((v) => v.id));
    expect(inserted[0]).toMatchObject({ status: 'new', livemode: true, toolIds: [], tools: [], scheduledAt: null });
    expect(inserted[1]).toMatchObject({
      status: 'scheduled',
      livemode: false,
      toolIds: ['a', 'b'],
      variableValues: { name: 'Ada' },
      scheduledAt: new Date('2030-01-02T03:04:05.678Z'),
      keyterms: ['x'],
    });
  });
});
