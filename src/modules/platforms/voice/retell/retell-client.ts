import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Retell } from 'retell-sdk';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { certainlyNotProcessed } from '../../placement-outcome';

/** A Retell answer other than 2xx (a 4xx other than 429 is final; the others are retried when that is safe). */
export class RetellRequestRejected extends Error {
  /** Retry-After of a 429 or 503, in ms, when Retell named one. */
  retryAfterMs: number | null = null;

  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

/** POST /v2/create-phone-call answered 429: the account's concurrency is used up; the call waits in our queue. */
export class RetellCallDeferred extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterMs: number,
  ) {
    super(reason);
  }
}

/**
 * POST /v2/create-phone-call refused for good (a 4xx about the call) or Retell unreachable (connection error,
 * timeout, 5xx): `unavailable` says which, as failover places only an unavailable platform's calls elsewhere.
 * `uncertain`: Retell may have placed the call all the same (a timeout, a reset connection, a 5xx other than 503).
 */
export class RetellCallRejected extends Error {
  constructor(
    readonly endedReason: string,
    readonly unavailable: boolean,
    readonly uncertain = false,
  ) {
    super(endedReason);
  }
}

/** Calls deferred by a 429 come back no sooner than this when Retell names no Retry-After (and no later than the cap). */
const RATE_LIMITED_RETRY_MS = { floor: 1_000, default: 5_000, cap: 300_000 } as const;
/** Every request's timeout; Retell's API answers well within it. */
const TIMEOUT_MS = 10_000;
/** Further attempts of an idempotent request after a 5xx, 429 or network failure. */
const MAX_RETRIES = 2;
const RETRY_BASE_MS = 500;
/** Calls read per list-calls: one of ours is placed once, plus the attempts a full pool turned away. */
const LIST_LIMIT = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMsOf(header: string | null): number | null {
  const seconds = Number(header ?? '');
  return header && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** Retell's error bodies carry `error_message` (or `message`). */
function detailOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error_message?: unknown; message?: unknown };
    const message = parsed.error_message ?? parsed.message;
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON: the raw text
  }
  return body.slice(0, 300) || 'no detail';
}

type Method = 'GET' | 'POST' | 'PATCH';

/**
 * Retell's REST API (bearer auth), on the SDK's types (retell-sdk) but not its HTTP client, as for Vapi: POST
 * /v2/create-phone-call is never repeated (Retell cannot deduplicate it, a retry could ring the customer twice);
 * the other requests are retried a bounded number of times on 5xx, 429 and network failures.
 */
@Injectable()
export class RetellClient {
  private readonly logger = new Logger(RetellClient.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * POST /v2/create-phone-call. A 429 becomes RetellCallDeferred; another 4xx RetellCallRejected (refused);
   * a 5xx, a timeout or a connection failure RetellCallRejected (unavailable).
   */
  async createPhoneCall(body: Retell.CallCreatePhoneCallParams): Promise<Retell.PhoneCallResponse> {
    try {
      return await this.request<Retell.PhoneCallResponse>('POST', '/v2/create-phone-call', body, false);
    } catch (error) {
      if (error instanceof RetellRequestRejected) {
        if (error.status === 429) {
          const wait = error.retryAfterMs ?? RATE_LIMITED_RETRY_MS.default;
          const retryAfterMs = Math.min(Math.max(wait, RATE_LIMITED_RETRY_MS.floor), RATE_LIMITED_RETRY_MS.cap);
          throw new RetellCallDeferred(`retell-concurrency: ${error.message}`, retryAfterMs);
        }
        if (error.status < 500) throw new RetellCallRejected(`retell-rejected: ${error.message}`, false);
      }
      const status = error instanceof RetellRequestRejected ? error.status : undefined;
      const uncertain = !certainlyNotProcessed({ status, error });
      throw new RetellCallRejected(`retell-unavailable: ${(error as Error).message}`.slice(0, 300), true, uncertain);
    }
  }

  /**
   * POST /v3/list-calls (the SDK's `call.list`): the calls whose `metadata.callId` is ours, at most
   * LIST_LIMIT. Read-only, so retried like the other idempotent requests. Used to find out whether a
   * create-phone-call that failed ambiguously placed the call.
   */
  async listCallsOf(callId: string): Promise<Retell.CallListResponse['items']> {
    const body: Retell.CallListParams = {
      filter_criteria: { metadata: [{ key: 'callId', op: 'eq', type: 'string', value: callId }] },
      limit: LIST_LIMIT,
    };
    const found = await this.request<Retell.CallListResponse>('POST', '/v3/list-calls', body, true);
    return found?.items ?? [];
  }

  /** GET /v2/get-call/{id}; null when Retell does not know the call. */
  async getCall(id: string): Promise<Retell.PhoneCallResponse | null> {
    return this.orNullWhenAbsent(this.request('GET', `/v2/get-call/${encodeURIComponent(id)}`, undefined, true));
  }

  /** POST /v2/stop-call/{id}: ends a live call; Retell then sends `call_ended`. Not retried. */
  async stopCall(id: string): Promise<void> {
    await this.request('POST', `/v2/stop-call/${encodeURIComponent(id)}`, undefined, false);
  }

  /** GET /get-phone-number/{number}; null when the account does not have the number. */
  getPhoneNumber(number: string): Promise<Retell.PhoneNumberResponse | null> {
    return this.orNullWhenAbsent(
      this.request('GET', `/get-phone-number/${encodeURIComponent(number)}`, undefined, true),
    );
  }

  updatePhoneNumber(number: string, body: Retell.PhoneNumberUpdateParams): Promise<Retell.PhoneNumberResponse> {
    return this.request('PATCH', `/update-phone-number/${encodeURIComponent(number)}`, body, true);
  }

  createLlm(body: Retell.LlmCreateParams): Promise<Retell.LlmResponse> {
    return this.request('POST', '/create-retell-llm', body, false);
  }

  updateLlm(id: string, body: Retell.LlmUpdateParams): Promise<Retell.LlmResponse> {
    return this.request('PATCH', `/update-retell-llm/${encodeURIComponent(id)}`, body, true);
  }

  createAgent(body: Retell.AgentCreateParams): Promise<Retell.AgentResponse> {
    return this.request('POST', '/create-agent', body, false);
  }

  updateAgent(id: string, body: Retell.AgentUpdateParams): Promise<Retell.AgentResponse> {
    return this.request('PATCH', `/update-agent/${encodeURIComponent(id)}`, body, true);
  }

  private async orNullWhenAbsent<T>(pending: Promise<T>): Promise<T | null> {
    try {
      return await pending;
    } catch (error) {
      if (error instanceof RetellRequestRejected && error.status === 404) return null;
      throw error;
    }
  }

  private async request<T>(method: Method, path: string, body: unknown, idempotent: boolean): Promise<T> {
    const { baseUrl, apiKey } = this.config.retell;
    for (let attempt = 0; ; attempt++) {
      let failure: Error;
      let retryAfterMs: number | null = null;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const text = await response.text();
        if (response.ok) return (text ? JSON.parse(text) : null) as T;
        const rejected = new RetellRequestRejected(response.status, detailOf(text));
        retryAfterMs = retryAfterMsOf(response.headers.get('retry-after'));
        rejected.retryAfterMs = retryAfterMs;
        if (response.status !== 429 && response.status < 500) throw rejected;
        failure = rejected;
      } catch (error) {
        if (error instanceof RetellRequestRejected && error.status !== 429 && error.status < 500) throw error;
        failure = error as Error;
      }
      if (attempt >= MAX_RETRIES || !idempotent) throw failure;
      const backoff = Math.min(retryAfterMs ?? RETRY_BASE_MS * 2 ** attempt, 30_000);
      this.logger.warn(
        { method, path, attempt: attempt + 1, err: failure.message, backoff },
        'Retell request failed; retrying',
      );
      await sleep(backoff);
    }
  }
}
