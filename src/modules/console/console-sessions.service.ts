import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminTokenCheck } from '../../common/auth/admin-token';
import { ConsoleSessionVerifier } from '../../common/auth/console-session-verifier';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { CSRF_HEADER, SESSION_COOKIE, readCookie } from './console-cookies';
import { ConsoleSessionsRepository } from './console-sessions.repository';

/** An operator session lasts a working day; signing out ends it at once. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const sha256 = (value: string) => createHash('sha256').update(value).digest();
/**
 * What a session keeps of the admin token that opened it: a hash under its own label, so it equals no other
 * digest of the token the service computes (the bearer check's).
 */
const adminTokenBinding = (adminToken: string | undefined) =>
  createHash('sha256')
    .update('console-session-admin-token:')
    .update(adminToken ?? '')
    .digest();

/**
 * The CSRF token is derived from the session token, so nothing more is stored; the page reads it from the
 * sign-in answer (or GET /admin/v1/session) and sends it back in `X-Console-CSRF` on every unsafe request.
 * A cross-site form cannot set that header, and SameSite=Strict already keeps the cookie off cross-site requests.
 */
const csrfFor = (sessionToken: string) => createHmac('sha256', sessionToken).update('console-csrf').digest('base64url');

export interface SignedIn {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

@Injectable()
export class ConsoleSessionsService implements ConsoleSessionVerifier {
  private readonly admin: AdminTokenCheck;
  /** Sessions are bound to the admin token: one opened with another token (before a change) is refused. */
  private readonly binding: Buffer;

  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.admin = new AdminTokenCheck(config.adminToken);
    this.binding = adminTokenBinding(config.adminToken);
  }

  /** Exchanges the admin token for a session (404 when the admin API is off, 401 on a wrong token). */
  async signIn(adminToken: string): Promise<SignedIn> {
    this.admin.verify(`Bearer ${adminToken}`);
    await this.sessions.pruneExpired();
    const token = randomBytes(32).toString('base64url');
    const session = await this.sessions.insert(
      sha256(token),
      'admin',
      new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      this.binding,
    );
    return { token, csrfToken: csrfFor(token), expiresAt: session.expiresAt };
  }

  /** The session of this request's cookie, or 401. */
  async current(request: FastifyRequest): Promise<SignedIn> {
    const token = readCookie(request, SESSION_COOKIE);
    const session = token ? await this.sessions.findLive(sha256(token), this.binding) : null;
    if (!token || !session) throw new ApiError('UNAUTHORIZED', 'Not signed in, or the session ended');
    return { token, csrfToken: csrfFor(token), expiresAt: session.expiresAt };
  }

  /** Ends every console session at once (all operators sign in again); the number ended. */
  revokeAll(): Promise<number> {
    return this.sessions.revokeAll();
  }

  async signOut(request: FastifyRequest): Promise<void> {
    const token = readCookie(request, SESSION_COOKIE);
    if (token) await this.sessions.revoke(sha256(token));
  }

  async verify(request: FastifyRequest): Promise<boolean> {
    if (readCookie(request, SESSION_COOKIE) === undefined) return false;
    const { csrfToken } = await this.current(request);
    if (!SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      const value = Array.isArray(sent) ? sent[0] : sent;
      if (!value || !timingSafeEqual(sha256(value), sha256(csrfToken))) {
        throw new ApiError('UNAUTHORIZED', `Missing or invalid ${CSRF_HEADER} header`);
      }
    }
    return true;
  }
}
