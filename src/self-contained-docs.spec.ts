import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The project speaks of itself alone: its promises are written in its own docs (docs/contracts), so a comment or
 * a doc that cites a contract points there, never to a document outside the repository; and figures and decisions
 * carry a date, a commit and a machine, never an internal tracker's issue, round or session number, which mean
 * nothing to a reader of the repository.
 */
const ROOT = resolve(__dirname, '..');
const SCANNED = ['src', 'test', 'bench', 'scripts', 'console/src', 'docs', 'clients/typescript/README.md', '.ci', 'deploy'];
const TOP_FILES = ['README.md', 'BENCHMARKS.md', 'Dockerfile', 'docker-compose.yml', 'ormconfig.ts'];
const TEXT = /\.(ts|tsx|mts|js|mjs|cjs|md|yml|yaml|sh|css|html)$|^run$/;
const SELF = relative(ROOT, __filename);

// Spelled in pieces so that this file does not match its own patterns.
const OUTSIDE = [
  new RegExp(['CONTR', 'ACTS(\\.md|\\s*§)'].join('')),
  new RegExp(['\\.\\./', 'shared\\b'].join('')),
  new RegExp(['STYLE', '\\.md|DEVEL', 'OPERS\\.md|voice-calling-api', '\\.md'].join('')),
];
const INTERNAL_NUMBER = [
  new RegExp(['\\b[Ii]ss', 'ues?\\s+#?\\d+'].join('')),
  new RegExp(['\\b[Ss]ess', 'ions?\\s+\\d+'].join('')),
  new RegExp(['\\b[Rr]ou', 'nds?\\s+\\d+\\b(?!\\s*(ms|s|trips?|%))'].join('')),
];

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full, { throwIfNoEntry: false })) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'generated' || e.name.startsWith('.data')) return [];
    const child = join(path, e.name);
    return e.isDirectory() ? files(child) : TEXT.test(e.name) ? [child] : [];
  });
}

/** Every line of the scanned files matching one of the patterns, as `path:line: text`. */
export function offendingLines(patterns: RegExp[], paths: string[]): string[] {
  return paths.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${path}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
  );
}

describe('the repository speaks of itself alone', () => {
  const scanned = [...SCANNED, ...TOP_FILES].flatMap(files).filter((p) => p !== SELF);

  it('scans the code, the tests, the benches and the docs', () => {
    expect(scanned.length).toBeGreaterThan(300);
    expect(scanned).toEqual(expect.arrayContaining(['README.md', 'docs/contracts/README.md', 'src/main.ts']));
  });

  it('no comment or doc cites a document outside the repository', () => {
    expect(offendingLines(OUTSIDE, scanned)).toEqual([]);
  });

  it('no comment, doc or benchmark labels anything with an internal issue, round or session number', () => {
    expect(offendingLines(INTERNAL_NUMBER, scanned)).toEqual([]);
  });

  it('the patterns catch what they are for, and pass what is ordinary prose', () => {
    const caught = (patterns: RegExp[], line: string) => patterns.some((p) => p.test(line));
    expect(caught(OUTSIDE, ['// see CONTR', 'ACTS §7'].join(''))).toBe(true);
    expect(caught(OUTSIDE, ['read ../sh', 'ared/spec'].join(''))).toBe(true);
    expect(caught(INTERNAL_NUMBER, ['(iss', 'ue 21)'].join(''))).toBe(true);
    expect(caught(INTERNAL_NUMBER, ['sess', 'ion 6 measured'].join(''))).toBe(true);
    expect(caught(INTERNAL_NUMBER, ['rou', 'nd 3 of review'].join(''))).toBe(true);
    expect(caught(INTERNAL_NUMBER, 'ten round trips per attempt')).toBe(false);
    expect(caught(INTERNAL_NUMBER, 'a console session of 8 hours')).toBe(false);
    expect(caught(OUTSIDE, 'see docs/contracts/bounds.md')).toBe(false);
  });
});
