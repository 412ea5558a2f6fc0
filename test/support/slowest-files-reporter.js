/*
 * A Jest reporter that prints the slowest test files of the run, with their times, once the run completes: where
 * the suite's minutes go is the first thing to know before making it faster (docs/architecture.md, "Tests").
 */
const SHOWN = 10;

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
  }

  relative(path) {
    return path.startsWith(`${this.rootDir}/`) ? path.slice(this.rootDir.length + 1) : path;
  }
}

module.exports = SlowestFilesReporter;
