import type Ajv from 'ajv/dist/core';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const CACHE = join(__dirname, '../../node_modules/.cache');

/**
 * A file derived from `inputs` (a provider's document or SDK, the source of the code that reads it), kept in
 * node_modules/.cache/`folder` under a hash of them: built by the first test file that needs it, and only read by
 * every later one. `name` is the file's name before the hash ("validators.js": validators-<hash>.js).
 */
export function cachedFile(folder: string, name: string, inputs: Array<string | Buffer>, build: () => string): string {
  const hash = createHash('sha256');
  inputs.forEach((input) => hash.update(input));
  const dot = name.lastIndexOf('.');
  const file = join(CACHE, folder, `${name.slice(0, dot)}-${hash.digest('hex').slice(0, 16)}${name.slice(dot)}`);
  if (!existsSync(file)) {
    mkdirSync(join(CACHE, folder), { recursive: true });
    // Written aside and renamed: test files in other workers may be reading the same path.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, build());
    renameSync(partial, file);
  }
  return file;
}

/**
 * ajv validators compiled once per document and repair: compiling a provider's document cost a test file seconds of
 * CPU (Vapi's CreateCallDTO, every model, voice and tool it knows, ~2 s; Meta's, its YAML parse included, ~2 s),
 * so `compile` runs only when the cached code is missing and gives the ajv instance (built with
 * `code: { source: true }`) and the schema of each validator by name; ajv's standalone code for them is kept
 * (cachedFile, ajv's version among the inputs) and loaded.
 */
export function standaloneValidators<Name extends string>(
  folder: string,
  inputs: Array<string | Buffer>,
  compile: () => { ajv: Ajv; refs: Record<Name, string> },
): Record<Name, ValidateFunction> {
  const ajvVersion = readFileSync(require.resolve('ajv/package.json'));
  const file = cachedFile(folder, 'validators.js', [...inputs, ajvVersion], () => {
    const { ajv, refs } = compile();
    return standaloneCode(ajv, refs);
  });
  // Node's own loader, not the test runner's: the generated module is loaded once per worker, not once per file.
  return createRequire(__filename)(file);
}
