import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'vc_console_session';
export const CSRF_HEADER = 'x-console-csrf';

/** The value of one cookie from the request's Cookie header (no cookie plugin for a single cookie). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (never sent on cross-site requests),
 * scoped to the paths that use it, Secure outside development (plain-HTTP localhost is allowed only there).
 */
export function sessionCookie(value: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(value)}`,
    'Path=/admin/v1',
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
