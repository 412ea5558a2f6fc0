/*
 * A Jest reporter that prints the slowest test files of the run, with their times, once the run completes: where
 * the suite's minutes go is the first thing to know before making it faster (docs/architecture.md, "Tests").
 * With RECORD_TEST_TIMES=1 it also writes every file's time into test/support/test-times.json, which orders the
 * next run on a checkout without Jest's cache (longest-first-sequencer.js); files this run did not run keep theirs.
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const SHOWN = 10;
const TIMES_FILE = join(__dirname, 'test-times.json');

class SlowestFilesReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.shown = options.shown ?? SHOWN;
    this.files = [];
  }

  onTestResult(_test, result) {
    const { start, end } = result.perfStats;
    this.files.push({
      path: result.testFilePath,
      ms: end - start,
      tests: result.numPassingTests + result.numFailingTests,
    });
  }

  onRunComplete() {
    if (this.files.length < 2) return;
    const slowest = [...this.files].sort((a, b) => b.ms - a.ms || a.path.localeCompare(b.path)).slice(0, this.shown);
    const width = Math.max(...slowest.map((f) => (f.ms / 1000).toFixed(1).length));
    const lines = slowest.map(
      (f) => `  ${(f.ms / 1000).toFixed(1).padStart(width)} s  ${this.relative(f.path)} (${f.tests} tests)`,
    );
    process.stderr.write(`\nSlowest ${slowest.length} of ${this.files.length} test files:\n${lines.join('\n')}\n`);
    if (process.env.RECORD_TEST_TIMES === '1') this.record();
  }

  /** Seconds per file, by path from the root; entries of files that no longer exist are dropped. */
  record() {
    const times = JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
    for (const f of this.files) times[this.relative(f.path)] = Math.round(f.ms / 100) / 10;
    const kept = Object.keys(times)
      .filter((path) => existsSync(join(this.rootDir, path)))
      .sort();
    writeFileSync(TIMES_FILE, `${JSON.stringify(Object.fromEntries(kept.map((p) => [p, times[p]])), null, 2)}\n`);
  }

  relative(path) {
    return path.startsWith(`${this.rootDir}/`) ? path.slice(this.rootDir.length + 1) : path;
  }
}

module.exports = SlowestFilesReporter;
