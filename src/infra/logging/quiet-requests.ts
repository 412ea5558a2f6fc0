/**
 * Requests logged at `debug` instead of `info` (docs/operations.md, "Logs"): the console's static files and
 * successful admin reads, which the console repeats every few seconds while a page is open (about 40 a minute).
 * At `info` they buried what a person acts on; the line is still written when LOG_LEVEL=debug, and every
 * write, every failure and every public or platform API request stays at `info`.
 */
export function isQuietRequest(method: string | undefined, url: string | undefined, status: number): boolean {
  const path = url ?? '';
  if (status >= 400) return false;
  if (path === '/console' || path.startsWith('/console/')) return true;
  return (method === 'GET' || method === 'HEAD') && path.startsWith('/admin/v1/');
}
