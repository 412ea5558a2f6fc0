/*
 * Loads our TypeScript in a medium or end-to-end test worker (jest.config.js, setupFiles): Node's own module loader
 * with two synchronous hooks, so every source file is compiled by swc once per worker and then shared by all the
 * files that worker runs, instead of being loaded again into a fresh registry per test file.
 * - resolve: `./x.js` (the node16-style import Nest's metadata generator writes) and extensionless relative
 *   imports find `x.ts` or `x/index.ts`, as TypeScript resolves them.
 * - load: a `.ts` file of ours (never one under node_modules) is compiled to CommonJS with swcOptions.
 */
const { existsSync, readFileSync } = require('node:fs');
const { registerHooks } = require('node:module');
const { fileURLToPath } = require('node:url');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options');

const OPTIONS = swcOptions({ decoratorMetadata: true });

function resolve(specifier, context, nextResolve) {
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/');
    if (!relative || !context.parentURL?.startsWith('file:')) throw error;
    const base = specifier.endsWith('.js') ? specifier.slice(0, -3) : specifier;
    for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
      const url = new URL(candidate, context.parentURL);
      if (existsSync(url)) return { url: url.href, format: 'commonjs', shortCircuit: true };
    }
    throw error;
  }
}

function load(url, context, nextLoad) {
  const path = url.startsWith('file:') ? fileURLToPath(url.split('?')[0]) : '';
  if (!path.endsWith('.ts') || path.includes('/node_modules/')) return nextLoad(url, context);
  const { code } = transformSync(readFileSync(path, 'utf8'), { ...OPTIONS, filename: path });
  return { format: 'commonjs', source: code, shortCircuit: true };
}

registerHooks({ resolve, load });
process.setSourceMapsEnabled(true);
