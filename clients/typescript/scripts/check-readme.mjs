// Compiles the README's TypeScript example (tsc --strict) against this package's sources: CI runs it, so the
// documented usage cannot drift from the generated SDK.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(here, 'README.md'), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
if (!example) throw new Error('README.md has no ```ts example');
const file = join(here, '.readme-example.ts');
const config = join(here, '.readme-tsconfig.json');
writeFileSync(file, example);
writeFileSync(
  config,
  JSON.stringify({
    extends: './tsconfig.json',
    compilerOptions: { noEmit: true, rootDir: '.', baseUrl: '.', paths: { '@voice-calling/sdk': ['./src/index.ts'] } },
    include: ['.readme-example.ts'],
  }),
);
try {
  execFileSync(join(here, '..', '..', 'node_modules', '.bin', 'tsc'), ['-p', config], { stdio: 'inherit' });
  console.log('README example compiles');
} finally {
  rmSync(file);
  rmSync(config);
}
