import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE, readCookie, sessionCookie } from './console-cookies';

const withCookie = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;

describe('console cookies', () => {
  it('reads one cookie among others, decoding its value', () => {
    expect(readCookie(withCookie(`a=1; ${SESSION_COOKIE}=x%2By; b=2`), SESSION_COOKIE)).toBe('x+y');
  });

  it('ignores a cookie whose name only ends with the one asked for', () => {
    expect(readCookie(withCookie(`evil_${SESSION_COOKIE}=x`), SESSION_COOKIE)).toBeUndefined();
    expect(readCookie(withCookie(), SESSION_COOKIE)).toBeUndefined();
  });

  it('sets HttpOnly, SameSite=Strict and a path, and Secure only when asked', () => {
    const secure = sessionCookie('t', { maxAgeSeconds: 60, secure: true });
    expect(secure.split('; ')).toEqual([
      `${SESSION_COOKIE}=t`,
      'Path=/admin/v1',
      'Max-Age=60',
      'HttpOnly',
      'SameSite=Strict',
      'Secure',
    ]);
    expect(sessionCookie('t', { maxAgeSeconds: 60, secure: false })).not.toContain('Secure');
  });
});
