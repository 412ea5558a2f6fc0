import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering of src/ (docs/architecture.md): infra depends on nothing outside infra, common only on infra,
 * a module never on bootstrap, the CLI or the app module, and no two folders import each other, directly or
 * round a loop. A folder is a module (src/modules/<name>) or a top-level folder of src/.
 */
const SRC = resolve(__dirname);

/** What each layer may import besides itself; modules may import each other as long as no loop forms. */
const ALLOWED: Record<string, (to: string) => boolean> = {
  infra: (to) => to === 'infra',
  common: (to) => to === 'infra' || to === 'common',
  modules: (to) => to === 'infra' || to === 'common' || to.startsWith('modules/'),
};

/**
 * Loops still open, each waiting for its fix; the spec fails when one closes, so the entry goes with it. None is
 * open: a loop found later is fixed, or listed here with the issue that tracks it.
 */
const KNOWN_LOOPS: string[][] = [];

type Graph = Record<string, Set<string>>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The folder a path of src/ belongs to: `modules/<name>`, or the top-level folder (or file) of src/. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0].replace(/\.ts$/, '');
}

/** Relative specifiers of static imports, re-exports and side-effect imports (type-only ones included). */
function relativeImports(source: string): string[] {
  const found = source.matchAll(/^\s*(?:import|export)\b[^;'"]*?(?:from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm);
  return [...found].map((m) => m[1]);
}

/** Folder -> folders it imports, from files given as path -> source. */
function folderGraph(files: Record<string, string>): Graph {
  const graph: Graph = {};
  for (const [path, source] of Object.entries(files)) {
    const from = folderOf(path);
    graph[from] ??= new Set();
    for (const spec of relativeImports(source)) {
      const to = folderOf(resolve(dirname(path), spec));
      if (to !== from) graph[from].add(to);
    }
  }
  return graph;
}

/** Imports a layer may not make, as "from -> to". */
function forbiddenImports(graph: Graph): string[] {
  return Object.entries(graph).flatMap(([from, tos]) => {
    const allowed = ALLOWED[from.split('/')[0]];
    return allowed ? [...tos].filter((to) => !allowed(to)).map((to) => `${from} -> ${to}`) : [];
  });
}

/** Every loop as the sorted folders of a strongly connected component (Tarjan), sorted. */
function loopsOf(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph[v] ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const v of Object.keys(graph).sort()) if (!index.has(v)) visit(v);
  return loops.sort((a, b) => a.join().localeCompare(b.join()));
}

const sources = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([path, source]) => [join(SRC, path), source]));

describe('folder imports', () => {
  const graph = folderGraph(Object.fromEntries(tsFiles(SRC).map((f) => [f, readFileSync(f, 'utf8')])));

  it('infra imports nothing outside infra, common nothing but infra, a module no entry point', () => {
    expect(forbiddenImports(graph)).toEqual([]);
  });

  it('no two folders import each other, directly or round a loop, beyond the known open loops', () => {
    expect(loopsOf(graph)).toEqual(KNOWN_LOOPS);
  });

  describe('the checks themselves', () => {
    it('see an upward import from infra and from common', () => {
      const upward = folderGraph(
        sources({
          'infra/queue/a.ts': `import { ApiError } from '../../common/errors/api-error';`,
          'common/b.ts': `import type { X } from\n  '../modules/outbox/domain-event';`,
          'modules/calls/c.ts': `import { AppModule } from '../../app.module';`,
        }),
      );
      expect(forbiddenImports(upward).sort()).toEqual([
        'common -> modules/outbox',
        'infra -> common',
        'modules/calls -> app.module',
      ]);
    });

    it('see a loop of two folders and one round three, but not a chain', () => {
      const looped = folderGraph(
        sources({
          'modules/contacts/a.ts': `import { M } from '../contact-groups/m.entity';`,
          'modules/contact-groups/m.entity.ts': `export { C } from '../contacts/c.entity';`,
          'modules/calls/x.ts': `import '../assistants/y';`,
          'modules/assistants/y.ts': `import { Z } from '../automations/z';`,
          'modules/automations/z.ts': `import { X } from '../calls/x';`,
          'modules/usage/u.ts': `import { O } from '../organizations/o';`,
        }),
      );
      expect(loopsOf(looped)).toEqual([
        ['modules/assistants', 'modules/automations', 'modules/calls'],
        ['modules/contact-groups', 'modules/contacts'],
      ]);
    });
  });
});
