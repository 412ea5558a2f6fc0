import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cachedFile } from './build-cache';
import type { DeclarationGraph } from './declaration-graph';

/** The provider SDKs whose declarations the fakes judge bodies by: the package's folder and its types' entry. */
const SDKS = {
  Vapi: { root: () => dirname(require.resolve('@vapi-ai/server-sdk/package.json')), entry: 'dist/cjs/api/index.d.ts' },
  Retell: { root: () => dirname(require.resolve('retell-sdk')), entry: 'resources/index.d.ts' },
};
export type SdkName = keyof typeof SDKS;

/**
 * The SDK's declarations as DeclarationSchema reads them, kept in the test build cache (test/support/build-cache.ts):
 * described by the compiler once per SDK version, TypeScript version and describer (declaration-graph.ts), before
 * any test file starts (the global setup), and by whichever file first finds it missing otherwise. A test file then
 * parses a JSON file in milliseconds where building the compiler's program over the SDK cost it seconds and hundreds
 * of MB.
 */
export function sdkDeclarations(name: SdkName): DeclarationGraph {
  const root = SDKS[name].root();
  const inputs = [
    readFileSync(join(root, 'package.json')),
    readFileSync(require.resolve('typescript/package.json')),
    readFileSync(join(__dirname, 'declaration-graph.ts')),
  ];
  const file = cachedFile('sdk-declarations', `${name.toLowerCase()}.json`, inputs, () => {
    // Loaded here only: test files that find the description written never load the compiler.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { describeDeclarations } = require('./declaration-graph') as typeof import('./declaration-graph');
    return JSON.stringify(describeDeclarations(join(root, SDKS[name].entry)));
  });
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Every SDK's description, written where missing (the global setup). */
export function writeSdkDeclarations(): void {
  for (const name of Object.keys(SDKS) as SdkName[]) sdkDeclarations(name);
}
