import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root, where `dist/main.js` is built. */
export const ROOT = join(__dirname, '..', '..');

/**
 * Builds dist/ only when it is older than the sources (scripts/build-if-stale.js): a rebuild empties dist/, which
 * other test files read meanwhile, and CI builds before the tests, so there it never rebuilds.
 */
export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.js')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stdout}${build.stderr}`);
}
