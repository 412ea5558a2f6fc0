/**
 * Requests logged at `debug` instead of `info` (docs/operations.md, "Logs"): the console's static files and
 * successful reads of the admin and public APIs, which the console and a client polling a call repeat every few
 * seconds (about 40 a minute while a console page is open, one a second while a script waits for a call). At
 * `info` they buried what a person acts on; the line is still written when LOG_LEVEL=debug, and every write,
 * every failure and every platform request stays at `info`.
 */
export function isQuietRequest(method: string | undefined, url: string | undefined, status: number): boolean {
  const path = url ?? '';
  if (status >= 400) return false;
  if (path === '/console' || path.startsWith('/console/')) return true;
  return (method === 'GET' || method === 'HEAD') && (path.startsWith('/admin/v1/') || path.startsWith('/api/v1/'));
}
