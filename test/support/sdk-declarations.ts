import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DeclarationGraph } from './declaration-graph';
import { GENERATED_DIR } from './generated-sources';

/** The provider SDKs whose declarations the fakes judge bodies by: the package's folder and its types' entry. */
const SDKS = {
  Vapi: { root: () => dirname(require.resolve('@vapi-ai/server-sdk/package.json')), entry: 'dist/cjs/api/index.d.ts' },
  Retell: { root: () => dirname(require.resolve('retell-sdk')), entry: 'resources/index.d.ts' },
};
export type SdkName = keyof typeof SDKS;

/**
 * The SDK's declarations as DeclarationSchema reads them, from test/support/generated/ (not committed): described
 * by the compiler once per SDK version, TypeScript version and describer (declaration-graph.ts), before any test
 * file starts (the global setup), and by whichever file first finds it missing otherwise. A test file then parses
 * a JSON file in milliseconds where building the compiler's program over the SDK cost it seconds and hundreds of MB.
 */
export function sdkDeclarations(name: SdkName): DeclarationGraph {
  const root = SDKS[name].root();
  const key = createHash('sha256')
    .update(readFileSync(join(root, 'package.json')))
    .update(readFileSync(require.resolve('typescript/package.json')))
    .update(readFileSync(join(__dirname, 'declaration-graph.ts')))
    .digest('hex');
  const file = join(GENERATED_DIR, `declarations-${name.toLowerCase()}-${key.slice(0, 16)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Loaded here only: test files that find the description written never load the compiler.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { describeDeclarations } = require('./declaration-graph') as typeof import('./declaration-graph');
    const graph = describeDeclarations(join(root, SDKS[name].entry));
    mkdirSync(GENERATED_DIR, { recursive: true });
    // Written aside and renamed: test files in other workers may be reading the same path.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(graph));
    renameSync(partial, file);
    return graph;
  }
}

/** Every SDK's description, written where missing (the global setup). */
export function writeSdkDeclarations(): void {
  for (const name of Object.keys(SDKS) as SdkName[]) sdkDeclarations(name);
}
