import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import type { Vapi } from '@vapi-ai/server-sdk';
import { PlatformServerError, certainlyNotProcessed } from '../placement-outcome';

/** A Vapi answer that retrying cannot change (4xx other than 429). */
export class VapiRequestRejected extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

/**
 * POST /call cannot be taken now (the account's concurrency pool is full): the call waits and comes back no sooner
 * than `retryAfterMs`. The voice adapter turns it into its port's `deferred` result.
 */
export class VapiCallDeferred extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterMs: number,
    /** Vapi's id of the blocked attempt, when it answered with a call (concurrencyBlocked) rather than a 429. */
    readonly blockedId: string | null = null,
  ) {
    super(reason);
  }
}

/**
 * POST /call refused for good, or Vapi unreachable past the retries (`unavailable`: a connection error, a timeout
 * or a 5xx, which failover places on the number's fallback platform); `endedReason` says which. `uncertain`: Vapi
 * may have placed the call all the same (a timeout, a reset connection, a 5xx other than 503).
 */
export class VapiCallRejected extends Error {
  constructor(
    readonly endedReason: string,
    readonly unavailable = false,
    readonly uncertain = false,
  ) {
    super(endedReason);
  }
}

/** POST /call answered 429 or `subscriptionLimits.concurrencyBlocked`: the account's concurrency pool is full. */
class VapiPoolFull extends Error {
  constructor(
    readonly retryAfterMs: number | null,
    detail: string,
    /** The blocked attempt's Vapi id (Vapi answers a blocked call with a call body); null after a 429. */
    readonly blockedId: string | null = null,
  ) {
    super(detail);
  }
}

/** Deferred calls come back no sooner than this when Vapi names no Retry-After (and no later than the cap). */
const POOL_FULL_RETRY_MS = { floor: 1_000, default: 5_000, cap: 300_000 } as const;
/** Numbers read per GET /phone-number (Vapi's maximum page): an account with more is beyond this import. */
export const PHONE_NUMBER_PAGE = 1000;

/** Retry-After in ms (seconds or an HTTP date), or null. */
function retryAfterMsOf(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

const concurrencyBlocked = (body: unknown) =>
  (body as { subscriptionLimits?: Vapi.SubscriptionLimits } | null)?.subscriptionLimits?.concurrencyBlocked === true;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Vapi's error bodies carry `message` as a string or a list of validation messages. */
function detailOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const message = Array.isArray(parsed.message) ? parsed.message.join('; ') : (parsed.message ?? parsed.error);
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.slice(0, 300) || 'no detail';
}

/**
 * Vapi's REST API (bearer auth), on the SDK's types (@vapi-ai/server-sdk) but not its HTTP client: the SDK's
 * retrier repeats any 5xx and timeout, which for POST /call could ring a customer twice. Every request has a timeout; 5xx, 429 and network failures are retried a
 * bounded number of times with exponential backoff (honouring Retry-After on 429), except that POST /call is
 * retried only when Vapi certainly did not act on it; other 4xx are final.
 */
@Injectable()
export class VapiClient {
  private readonly logger = new Logger(VapiClient.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * POST /call. A full account pool (429, or `subscriptionLimits.concurrencyBlocked` on any answer) becomes
   * VapiCallDeferred, honouring Retry-After; another 4xx, or failures past the retries, become VapiCallRejected
   * with a readable endedReason.
   */
  async createCall(body: Vapi.CreateCallDto): Promise<Vapi.Call> {
    try {
      const created = await this.request<Vapi.Call>('POST', '/call', body, { idempotent: false });
      if (concurrencyBlocked(created)) {
        throw new VapiPoolFull(null, 'subscriptionLimits.concurrencyBlocked', created.id ?? null);
      }
      return created;
    } catch (error) {
      if (error instanceof VapiPoolFull) {
        const wait = error.retryAfterMs ?? POOL_FULL_RETRY_MS.default;
        const retryAfterMs = Math.min(Math.max(wait, POOL_FULL_RETRY_MS.floor), POOL_FULL_RETRY_MS.cap);
        throw new VapiCallDeferred(`vapi-concurrency: ${error.message}`, retryAfterMs, error.blockedId);
      }
      if (error instanceof VapiRequestRejected) {
        throw new VapiCallRejected(`vapi-rejected: ${error.status} ${error.detail}`);
      }
      const status = error instanceof PlatformServerError ? error.status : undefined;
      const uncertain = !certainlyNotProcessed({ status, error });
      throw new VapiCallRejected(`vapi-unavailable: ${(error as Error).message}`.slice(0, 300), true, uncertain);
    }
  }

  /**
   * GET /call with filters: the calls placed from a number (Vapi's id) since a time, newest Vapi keeps first; at
   * most PHONE_NUMBER_PAGE. Used to find out whether a POST /call that failed ambiguously placed the call.
   */
  listCalls(phoneNumberId: string, createdSince: Date): Promise<Vapi.Call[]> {
    const query = new URLSearchParams({
      phoneNumberId,
      createdAtGe: createdSince.toISOString(),
      limit: String(PHONE_NUMBER_PAGE),
    });
    return this.request('GET', `/call?${query.toString()}`, undefined, { idempotent: true });
  }

  /**
   * POST /chat: one turn of a text conversation with an assistant. Not retried here after a timeout or a 5xx (Vapi
   * may have answered and charged); the chat agent's job retries the whole turn with backoff.
   */
  createChat(body: Vapi.CreateChatDto): Promise<Vapi.Chat> {
    return this.request<Vapi.Chat>('POST', '/chat', body, { idempotent: false });
  }

  /** GET /call/{id}; null when Vapi does not know the call. */
  async getCall(id: string): Promise<Vapi.Call | null> {
    try {
      return await this.request<Vapi.Call>('GET', `/call/${encodeURIComponent(id)}`, undefined, { idempotent: true });
    } catch (error) {
      if (error instanceof VapiRequestRejected && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Sends a live-call control message (`end-call`, ...) to the call's `monitor.controlUrl`, which Vapi hands out
   * per call. Not retried: a control message that may have arrived is not sent twice.
   */
  async controlCall(controlUrl: string, message: Vapi.ClientInboundMessageMessage): Promise<void> {
    const response = await fetch(controlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(this.config.vapi.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new VapiRequestRejected(response.status, detailOf(text));
  }

  /** GET /phone-number: the account's numbers (at most PHONE_NUMBER_PAGE). */
  listPhoneNumbers(): Promise<Vapi.ListPhoneNumbersResponseItem[]> {
    return this.request('GET', `/phone-number?limit=${PHONE_NUMBER_PAGE}`, undefined, { idempotent: true });
  }

  /** PATCH /phone-number/{id} (idempotent: the same body twice leaves the same number). */
  updatePhoneNumber(id: string, body: Vapi.UpdatePhoneNumbersRequestBody): Promise<Vapi.UpdatePhoneNumbersResponse> {
    return this.request('PATCH', `/phone-number/${encodeURIComponent(id)}`, body, { idempotent: true });
  }

  private async request<T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body: unknown,
    { idempotent }: { idempotent: boolean },
  ): Promise<T> {
    const { baseUrl, apiKey, timeoutMs, maxRetries, retryBaseMs } = this.config.vapi;
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | null = null;
      let failure: Error;
      let status: number | undefined;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as T;
        if (response.status === 429 && path === '/call' && method === 'POST') {
          // The account's pool is full: the call waits in our queue (not in this request), for as long as asked.
          throw new VapiPoolFull(retryAfterMsOf(response.headers.get('retry-after')), `429 ${detailOf(text)}`);
        }
        if (response.status !== 429 && response.status < 500)
          throw new VapiRequestRejected(response.status, detailOf(text));
        failure = new PlatformServerError(response.status, detailOf(text));
        status = response.status;
        if (response.status === 429) retryAfterMs = retryAfterMsOf(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof VapiRequestRejected || error instanceof VapiPoolFull) throw error;
        failure = error as Error;
      }
      if (attempt >= maxRetries || (!idempotent && !certainlyNotProcessed({ status, error: failure }))) throw failure;
      const backoff = Math.min(retryAfterMs ?? retryBaseMs * 2 ** attempt, 30_000);
      this.logger.warn(
        { method, path, attempt: attempt + 1, err: failure.message, backoff },
        'Vapi request failed; retrying',
      );
      await sleep(backoff);
    }
  }
}
