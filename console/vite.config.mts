import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console is built into dist/console and served by the api role at /console (src/modules/console).
 * No inline scripts or styles are emitted, so the page runs under a CSP without 'unsafe-inline'.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Keep the module-preload polyfill out: it is an inline script the CSP would refuse.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    rolldownOptions: {
      // React Query marks its modules "use client" for server-component bundlers; meaningless in a browser build.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  server: { proxy: { '/admin/v1': 'http://localhost:3000' } },
});
