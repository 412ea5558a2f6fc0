import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A `Tx` is only what `inTransaction` hands its work (src/infra/database/tx.ts): this fails when a file under
 * src/ opens a transaction another way (whose manager would then be a bare EntityManager cast or passed along
 * untyped) or casts something to `Tx`.
 */
const SRC = join(__dirname, '..', '..');
const HELPER = 'infra/database/tx.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const OPENS_A_TRANSACTION = /\.transaction\(|\.startTransaction\(/;
const CASTS_TO_TX = /\bas\s+Tx\b|<Tx>\s*\w/;

describe('a Tx comes from inTransaction only', () => {
  const files = sourceFiles(SRC)
    .map((path) => ({ file: relative(SRC, path), source: readFileSync(path, 'utf8') }))
    .filter((f) => f.file !== HELPER);

  it('no other file opens a transaction or casts to Tx', () => {
    const offenders = files
      .filter((f) => OPENS_A_TRANSACTION.test(f.source) || CASTS_TO_TX.test(f.source))
      .map((f) => f.file);
    expect(offenders).toEqual([]);
  });

  it('the patterns catch what they are for', () => {
    for (const sample of [
      'this.dataSource.transaction(async (m) => x)',
      'await runner.startTransaction()',
      'manager as Tx',
      '<Tx>manager',
    ])
      expect({ sample, caught: OPENS_A_TRANSACTION.test(sample) || CASTS_TO_TX.test(sample) }).toEqual({
        sample,
        caught: true,
      });
    expect(OPENS_A_TRANSACTION.test('inTransaction(this.dataSource, (tx) => x)')).toBe(false);
  });
});
