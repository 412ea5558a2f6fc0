import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * CallsRepository is the only code that writes `calls`, so every status move stays checked against the
 * transition table (call-transitions.ts). This fails when SQL or a TypeORM write on `calls` appears anywhere
 * else under src/ (migrations excepted: they shape the table, they do not move calls).
 */
const SRC = join(__dirname, '..', '..');
/** The one file that may write `calls`: not any repository, which could move a call past the transition table. */
const HOME = join(__dirname, 'calls.repository.ts');

const WRITES_TO_CALLS: ReadonlyArray<[string, RegExp]> = [
  ['SQL UPDATE', /\bUPDATE\s+(?:ONLY\s+)?"?calls"?(?![\w-])/i],
  ['SQL INSERT', /\bINSERT\s+INTO\s+"?calls"?(?![\w-])/i],
  ['SQL DELETE', /\bDELETE\s+FROM\s+(?:ONLY\s+)?"?calls"?(?![\w-])/i],
  ['SQL MERGE', /\bMERGE\s+INTO\s+"?calls"?(?![\w-])/i],
  [
    'an EntityManager write of Call',
    /\.(?:insert|update|upsert|save|delete|remove|softDelete|softRemove|restore|increment|decrement)\(\s*Call\s*[,)]/,
  ],
  ['a query-builder write into Call', /\.(?:into|update|delete)\(\s*Call\b/],
  // A query builder or repository of Call can write (`.update()`, `.save()`), so only the repository holds one.
  ['a query builder on Call', /createQueryBuilder\(\s*Call\b/],
  ['a TypeORM repository of Call', /(?:getRepository|InjectRepository)\(\s*Call\s*\)|Repository<\s*Call\s*>/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && path !== HOME ? [path] : [];
  });
}

function writesToCalls(source: string): string[] {
  return WRITES_TO_CALLS.filter(([, pattern]) => pattern.test(source)).map(([what]) => what);
}

describe('writes to calls live in CallsRepository only', () => {
  it('no file under src/ but calls.repository.ts and migrations writes to calls', () => {
    const offenders = sourceFiles(SRC)
      .filter((path) => path !== __filename)
      .map((path) => ({ file: relative(SRC, path), writes: writesToCalls(readFileSync(path, 'utf8')) }))
      .filter((o) => o.writes.length > 0);
    expect(offenders).toEqual([]);
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
      expect({ sample, caught: writesToCalls(sample).length > 0 }).toEqual({ sample, caught: true });
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
    for (const sample of samples) expect({ sample, caught: writesToCalls(sample) }).toEqual({ sample, caught: [] });
  });
});
