import { Inject, Injectable, Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ApiError } from '../../../../common/errors/api-error';
import { pinnedGet } from '../../../../common/outbound-http/pinned-get';
import { assertOutboundUrl } from '../../../../common/url-safety/assert-outbound-url';
import { OutboundUrlPolicy } from '../../../../common/url-safety/outbound-url-policy';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { MessagingAccount } from '../../../messaging/messaging-account.entity';
import { MessagingCredentials } from '../../../messaging/messaging-credentials';
import { WhatsAppConfig, isMediaHost, whatsAppConfig } from './whatsapp-config';
import type { GraphError } from './whatsapp-graph.types';

/** Connection failures that prove the request never reached Meta (nothing was sent). */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * A Graph API call's outcome: the parsed body, or Meta's error object (or ours, when Meta could not be reached).
 * `unanswered`: the request may have reached Meta but no answer came back (timed out, connection lost, or a
 * success whose body was cut off), so Meta may have acted on it.
 */
export type GraphResult<T> =
  { ok: true; body: T } | { ok: false; status: number; error: GraphError; unanswered?: boolean };

/** What an account talks to Meta with: its own ids and token where it has them, the process-wide ones otherwise. */
export interface GraphCredentials {
  token?: string;
  phoneNumberId: string | null;
  wabaId?: string;
}

/**
 * The one HTTP client for Meta's Graph API: resolves the account's credentials, sends the bearer token, bounds
 * every call in time, and turns any failure into Meta's error shape so callers map one thing.
 */
@Injectable()
export class WhatsAppGraphClient {
  private readonly logger = new Logger(WhatsAppGraphClient.name);
  readonly settings: WhatsAppConfig;
  private readonly urlPolicy: OutboundUrlPolicy;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly credentials: MessagingCredentials,
  ) {
    this.settings = whatsAppConfig(config);
    this.urlPolicy = OutboundUrlPolicy.fromConfig(config);
  }

  credentialsOf(account: MessagingAccount): GraphCredentials {
    return {
      token: this.credentials.ownToken(account) ?? this.settings.accessToken,
      phoneNumberId: account.phoneNumberId,
      wabaId: account.wabaId ?? this.settings.wabaId,
    };
  }

  /** `path` is relative to the versioned Graph URL (`/123/messages`), or an absolute `next` page link. */
  async json<T>(
    token: string | undefined,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<GraphResult<T>> {
    const response = await this.fetch(token, method, path, body);
    if (!response.ok && 'error' in response) return response;
    const res = (response as { res: Response }).res;
    const parsed = (await res.json().catch(() => null)) as (T & { error?: GraphError }) | null;
    if (res.ok && parsed && !parsed.error) return { ok: true, body: parsed };
    if (res.ok && !parsed) return { ok: false, status: 0, error: NO_ANSWER, unanswered: true };
    return { ok: false, status: res.status, error: parsed?.error ?? httpError(res.status) };
  }

  /**
   * A media file's bytes (`url` from `GET /{media-id}`), streamed: Meta wants the same bearer token there, so the
   * token goes only to one of Meta's media hosts (or the configured Graph API's own host: isMediaHost), and only
   * over a connection the outbound URL rules allow, pinned to the addresses they vetted (pinnedGet).
   */
  async download(
    token: string | undefined,
    url: string,
  ): Promise<GraphResult<{ body: Readable; type: string; length: number | null }>> {
    if (!token) return { ok: false, status: 0, error: NO_TOKEN };
    if (!isMediaHost(url, this.settings.graphUrl)) {
      return { ok: false, status: 0, error: ownError("The messaging provider named a media host that is not Meta's") };
    }
    const answer = await pinnedGet(url, {
      headers: { authorization: `Bearer ${token}` },
      policy: this.urlPolicy,
      timeoutMs: this.settings.requestTimeoutMs,
    });
    if (!answer.ok) {
      if (answer.failure === 'refused') {
        return {
          ok: false,
          status: 0,
          error: ownError(`The messaging provider named a URL we do not call: ${answer.error}`),
        };
      }
      this.logger.warn({ err: answer.error }, 'WhatsApp media host unreachable');
      return { ok: false, status: 0, error: ownError('The messaging provider could not be reached') };
    }
    const res = answer.response;
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.destroy();
      return { ok: false, status, error: httpError(status) };
    }
    const length = Number(res.headers['content-length']);
    return {
      ok: true,
      body: {
        body: res,
        type: res.headers['content-type'] ?? 'application/octet-stream',
        length: Number.isFinite(length) && res.headers['content-length'] !== undefined ? length : null,
      },
    };
  }

  private async fetch(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ ok: true; res: Response } | { ok: false; status: number; error: GraphError; unanswered?: boolean }> {
    if (!token) return { ok: false, status: 0, error: NO_TOKEN };
    const absolute = /^https?:\/\//.test(path);
    const url = absolute ? path : `${this.settings.graphUrl}${path}`;
    // An absolute URL came in an answer (a next page), not from our settings: the token
    // goes there only when the outbound URL rules (those of webhooks) allow the address.
    const refused = absolute ? await this.refusedUrl(url) : null;
    if (refused)
      return { ok: false, status: 0, error: ownError(`The messaging provider named a URL we do not call: ${refused}`) };
    try {
      const res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.requestTimeoutMs),
      });
      return { ok: true, res };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      this.logger.warn({ err: (error as Error).message, cause, method }, 'WhatsApp Graph API unreachable');
      if (cause && NEVER_SENT.has(cause)) {
        return { ok: false, status: 0, error: ownError('The messaging provider could not be reached') };
      }
      return { ok: false, status: 0, error: NO_ANSWER, unanswered: true };
    }
  }

  private async refusedUrl(url: string): Promise<string | null> {
    try {
      await assertOutboundUrl(url, this.urlPolicy);
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return error.message;
    }
  }
}

/** An error we make up when Meta sent none: no numeric code of Meta's (code 0). */
const ownError = (message: string): GraphError => ({ code: 0, type: 'ClientError', message, fbtrace_id: '' });
const httpError = (status: number): GraphError => ownError(`The messaging provider answered HTTP ${status}`);
const NO_TOKEN = ownError('No WhatsApp access token is configured for this account');
const NO_ANSWER = ownError('The messaging provider did not answer in time (the request may have reached it)');
