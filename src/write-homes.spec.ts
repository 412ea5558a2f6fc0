import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One persistence rule (docs/architecture.md, "Where each hot table's SQL lives"): a table whose rows hold
 * invariants (status moves checked against a transition table, a ledger moved under its lock, events recorded
 * once) is written by its repository only. This fails when SQL or a TypeORM write on such a table appears in
 * any other file under src/ (migrations excepted: they shape tables, they do not move rows). A statement that
 * writes a second table under the first one's lock (a ledger row moves the balance) lives with the table it
 * exists for, so a table may have more than one home.
 */
const SRC = __dirname;

interface WriteHome {
  table: string;
  /** The entity class of the table, as TypeORM writes name it. */
  entity: string;
  /** The files (relative to src/) that may write it. */
  homes: readonly string[];
}

const HOMES: readonly WriteHome[] = [
  { table: 'calls', entity: 'Call', homes: ['modules/calls/calls.repository.ts'] },
  { table: 'campaigns', entity: 'Campaign', homes: ['modules/campaigns/campaigns.repository.ts'] },
  { table: 'campaign_entries', entity: 'CampaignEntry', homes: ['modules/campaigns/campaign-entries.repository.ts'] },
  {
    table: 'campaign_attempts',
    entity: 'CampaignAttempt',
    homes: ['modules/campaigns/campaign-attempts.repository.ts'],
  },
  { table: 'outbox_events', entity: 'OutboxEvent', homes: ['modules/outbox/outbox-events.repository.ts'] },
  {
    table: 'usage_balances',
    entity: 'UsageBalance',
    homes: [
      'modules/usage/usage-balances.repository.ts',
      'modules/usage/minute-ledger.repository.ts',
      'modules/usage/call-reservations.repository.ts',
    ],
  },
  { table: 'minute_ledger', entity: 'MinuteLedgerEntry', homes: ['modules/usage/minute-ledger.repository.ts'] },
  {
    table: 'minute_grants',
    entity: 'MinuteGrant',
    homes: ['modules/usage/minute-grants.repository.ts', 'modules/usage/call-reservations.repository.ts'],
  },
  {
    table: 'call_reservations',
    entity: 'CallReservation',
    homes: ['modules/usage/call-reservations.repository.ts'],
  },
  { table: 'cases', entity: 'Case', homes: ['modules/cases/cases.repository.ts'] },
  { table: 'contacts', entity: 'Contact', homes: ['modules/contacts/contacts.repository.ts'] },
  { table: 'messages', entity: 'Message', homes: ['modules/messaging/messages.repository.ts'] },
  { table: 'conversations', entity: 'Conversation', homes: ['modules/messaging/conversations.repository.ts'] },
  {
    table: 'recurring_schedules',
    entity: 'RecurringSchedule',
    homes: ['modules/automations/recurring-schedules.repository.ts'],
  },
  {
    table: 'follow_up_campaigns',
    entity: 'FollowUpCampaign',
    homes: ['modules/automations/follow-up-campaigns.repository.ts'],
  },
  { table: 'call_labels', entity: 'CallLabel', homes: ['modules/answer-detection/call-labels.repository.ts'] },
  { table: 'number_days', entity: 'NumberDay', homes: ['modules/number-health/number-health.repository.ts'] },
  { table: 'number_health', entity: 'NumberHealth', homes: ['modules/number-health/number-health.repository.ts'] },
  {
    table: 'early_delivery_statuses',
    entity: 'EarlyDeliveryStatus',
    homes: ['modules/messaging/early-delivery-statuses.repository.ts'],
  },
];

const INJECTS_A_REPOSITORY = /@InjectRepository\(/;

/** The patterns of a write to `table` / `entity`, each named. */
function writePatterns(table: string, entity: string): ReadonlyArray<[string, RegExp]> {
  const t = `"?${table}"?(?![\\w-])`;
  return [
    ['SQL UPDATE', new RegExp(`\\bUPDATE\\s+(?:ONLY\\s+)?${t}`, 'i')],
    ['SQL INSERT', new RegExp(`\\bINSERT\\s+INTO\\s+${t}`, 'i')],
    ['SQL DELETE', new RegExp(`\\bDELETE\\s+FROM\\s+(?:ONLY\\s+)?${t}`, 'i')],
    ['SQL MERGE', new RegExp(`\\bMERGE\\s+INTO\\s+${t}`, 'i')],
    [
      `an EntityManager write of ${entity}`,
      new RegExp(
        `\\.(?:insert|update|upsert|save|delete|remove|softDelete|softRemove|restore|increment|decrement)\\(\\s*${entity}\\s*[,)]`,
      ),
    ],
    [`a query-builder write into ${entity}`, new RegExp(`\\.(?:into|update|delete)\\(\\s*${entity}\\b`)],
    // A query builder or repository of the entity can write (`.update()`, `.save()`), so only a home holds one.
    [`a query builder on ${entity}`, new RegExp(`createQueryBuilder\\(\\s*${entity}\\b`)],
    [
      `a TypeORM repository of ${entity}`,
      new RegExp(`(?:getRepository|InjectRepository)\\(\\s*${entity}\\s*\\)|Repository<\\s*${entity}\\s*>`),
    ],
  ];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function writesTo(source: string, table: string, entity: string): string[] {
  return writePatterns(table, entity)
    .filter(([, pattern]) => pattern.test(source))
    .map(([what]) => what);
}

describe('tables with invariants are written by their repositories only', () => {
  const files = sourceFiles(SRC).map((path) => ({ file: relative(SRC, path), source: readFileSync(path, 'utf8') }));

  it.each(HOMES.map((h) => [h.table, h] as const))('%s', (_table, { table, entity, homes }) => {
    for (const home of homes) expect(files.map((f) => f.file)).toContain(home);
    const offenders = files
      .filter((f) => !homes.includes(f.file))
      .map((f) => ({ file: f.file, writes: writesTo(f.source, table, entity) }))
      .filter((o) => o.writes.length > 0);
    expect(offenders).toEqual([]);
  });

  it('no service or command holds a TypeORM repository: a table is reached through its own repository', () => {
    const holders = files
      .filter((f) => !f.file.endsWith('.repository.ts') && INJECTS_A_REPOSITORY.test(f.source))
      .map((f) => f.file);
    expect(holders).toEqual([]);
    expect(INJECTS_A_REPOSITORY.test('@InjectRepository(Prompt) private readonly prompts: Repository<Prompt>')).toBe(
      true,
    );
  });

  it('the guard recognizes each kind of write (so an empty list above means something)', () => {
    const samples = [
      `UPDATE calls SET status = 'x'`,
      `update "calls" c set status = 'x'`,
      `INSERT INTO calls (id) VALUES ($1)`,
      `DELETE FROM calls WHERE id = $1`,
      `MERGE INTO calls USING x ON true`,
      `await m.insert(Call, created)`,
      `await manager.update(Call, { id }, { status })`,
      `await tx.save(Call, call)`,
      `qb.insert().into(Call).values(v)`,
      `this.dataSource.createQueryBuilder().update(Call).set({})`,
      `this.dataSource.manager.createQueryBuilder(Call, 'c')`,
      `const repo = this.dataSource.getRepository(Call)`,
      `@InjectRepository(Call) private readonly calls: Repository<Call>`,
    ];
    for (const sample of samples)
      expect({ sample, caught: writesTo(sample, 'calls', 'Call').length > 0 }).toEqual({ sample, caught: true });
    expect(writesTo(`UPDATE outbox_events SET relayed_at = now()`, 'outbox_events', 'OutboxEvent')).toEqual([
      'SQL UPDATE',
    ]);
  });

  it('reads and other tables pass', () => {
    const samples = [
      `SELECT id FROM calls WHERE status = 'new'`,
      `UPDATE call_attempts SET x = 1`,
      `UPDATE calls_archive SET x = 1`,
      `INSERT INTO campaign_entries (id) VALUES ($1)`,
      `await manager.countBy(Call, { caseId })`,
      `await m.insert(CallAttempt, row)`,
      `this.calls.delete(call)`,
    ];
    for (const sample of samples)
      expect({ sample, caught: writesTo(sample, 'calls', 'Call') }).toEqual({ sample, caught: [] });
  });
});
