import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const CONSOLE_PATH = '/console';

/**
 * The console's pages load only our own scripts and styles (Vite emits no inline code), talk only to this
 * origin, and cannot be framed: nothing inline, nothing remote, no eval. Stricter than the API-wide policy,
 * which Swagger UI needs looser.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  // Call recordings play in the page from where the voice platform stores them (https only): media, not code.
  "media-src 'self' https:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** `npm run build` writes the console to dist/console; from src (tests) the same folder is found from the cwd. */
function consoleRoot(): string | undefined {
  return [resolve(__dirname, '../../console'), resolve(process.cwd(), 'dist/console')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

/**
 * Serves the built console at /console (api role). A Fastify plugin outside Nest routing: the files are public
 * (the data behind them needs a session), and every page path falls back to index.html for the client router.
 */
export async function mountConsole(fastify: FastifyInstance): Promise<void> {
  const root = consoleRoot();
  if (!root) return;
  await fastify.register(async (scope) => {
    scope.addHook('onSend', async (request, reply) => {
      void reply.header('content-security-policy', CONSOLE_CSP);
      // Hashed assets never change; the page itself is always revalidated so a deploy shows at once.
      const hashed = request.url.startsWith(`${CONSOLE_PATH}/assets/`);
      void reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    });
    await scope.register(fastifyStatic, {
      root,
      prefix: `${CONSOLE_PATH}/`,
      wildcard: false,
      index: false,
      cacheControl: false,
    });
    const page = (_request: unknown, reply: { sendFile: (file: string) => unknown }) => reply.sendFile('index.html');
    scope.get(CONSOLE_PATH, page);
    scope.get(`${CONSOLE_PATH}/*`, page);
  });
}
