import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the test run derives once from the sources, before any test file starts (the global setup), into
 * test/support/generated/ (not committed):
 *
 * - `swagger-metadata.ts`: the OpenAPI metadata that @nestjs/swagger's compiler plugin gives `nest build`, written
 *   by Nest's own metadata generator. Test files are transpiled file by file (no TypeScript program per Jest
 *   worker, which cost every worker seconds of CPU and most of a gigabyte), so the plugin cannot run in them;
 *   `startTestApp` attaches the same metadata to the app under test, and test/foundation/openapi proves the
 *   served document equal to the committed one, which CI checks against `nest build`'s.
 * - `openapi.json` and `admin.json`: the committed documents as JSON, so each file's contract checks
 *   (test/support/openapi-contract.ts) parse them in milliseconds instead of the YAML in most of a second.
 */
export const GENERATED_DIR = join(__dirname, 'generated');
const ROOT = join(__dirname, '..', '..');
const SOURCES = join(ROOT, 'src');
const METADATA_FILE = 'swagger-metadata.ts';

/** Every source file's path, size and modification time: a file added, changed or removed changes it. */
function sourcesFingerprint(dir: string, hash = createHash('sha1')): ReturnType<typeof createHash> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourcesFingerprint(path, hash);
    else if (entry.name.endsWith('.ts')) {
      const { size, mtimeMs } = statSync(path);
      hash.update(`${path}\0${size}\0${mtimeMs}\n`);
    }
  }
  return hash;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Writes what is missing or stale; a fresh clone pays the metadata generator's type check once (~10 s). */
export async function writeGeneratedSources(): Promise<void> {
  mkdirSync(GENERATED_DIR, { recursive: true });
  // Loaded here only: test files import this module for GENERATED_DIR and never parse YAML.
  const { parse } = await import('yaml');
  for (const doc of ['openapi', 'admin']) {
    const source = join(ROOT, 'openapi', `${doc}.yaml`);
    const target = join(GENERATED_DIR, `${doc}.json`);
    if (mtime(target) < mtime(source)) writeFileSync(target, JSON.stringify(parse(readFileSync(source, 'utf8'))));
  }
  const fingerprintFile = join(GENERATED_DIR, 'swagger-metadata.sources');
  const fingerprint = sourcesFingerprint(SOURCES).digest('hex');
  if (mtime(join(GENERATED_DIR, METADATA_FILE)) && readIfThere(fingerprintFile) === fingerprint) return;
  const { PluginMetadataGenerator } = await import('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js');
  const { ReadonlyVisitor } = await import('@nestjs/swagger/plugin');
  // The plugin's options in nest-cli.json: the same document from both paths.
  const nestCli = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8'));
  const options = nestCli.compilerOptions.plugins.find((p: { name: string }) => p.name === '@nestjs/swagger').options;
  new PluginMetadataGenerator().generate({
    // Imports in the generated file are relative to pathToSource (the file's own folder) and, without outDir and
    // rootDir given, would point at the build's output (dist/) instead of the sources the tests load.
    visitors: [new ReadonlyVisitor({ ...options, pathToSource: GENERATED_DIR, outDir: SOURCES, rootDir: SOURCES })],
    outputDir: GENERATED_DIR,
    filename: METADATA_FILE,
    tsconfigPath: 'tsconfig.build.json',
    printDiagnostics: false,
  });
  writeFileSync(fingerprintFile, fingerprint);
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
