import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { VoiceCallRejected } from '../voice-provider';
import type { Vapi } from '@vapi-ai/server-sdk';

/** A Vapi answer that retrying cannot change (4xx other than 429). */
export class VapiRequestRejected extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status} ${detail}`);
  }
}

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
 * Failures after which Vapi certainly did not act on a request: it asked us to come back (429, 503) or the
 * connection never opened. Only these are retried for POST /call, which Vapi cannot deduplicate: a timeout, a
 * reset connection or another 5xx may follow a call Vapi did place, and a retry would ring the customer twice.
 */
function certainlyNotProcessed(failure: { status?: number; error?: Error }): boolean {
  if (failure.status !== undefined) return failure.status === 429 || failure.status === 503;
  const code = (failure.error?.cause as { code?: string } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
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

  /** POST /call. A 4xx, or failures past the retries, become VoiceCallRejected with a readable endedReason. */
  async createCall(body: Vapi.CreateCallDto): Promise<Vapi.Call> {
    try {
      return await this.request<Vapi.Call>('POST', '/call', body, { idempotent: false });
    } catch (error) {
      if (error instanceof VapiRequestRejected) {
        throw new VoiceCallRejected(`vapi-rejected: ${error.status} ${error.detail}`);
      }
      throw new VoiceCallRejected(`vapi-unavailable: ${(error as Error).message}`.slice(0, 300));
    }
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

  private async request<T>(
    method: 'GET' | 'POST',
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
        if (response.status !== 429 && response.status < 500)
          throw new VapiRequestRejected(response.status, detailOf(text));
        failure = new Error(`${response.status} ${detailOf(text)}`);
        status = response.status;
        const retryAfter = Number(response.headers.get('retry-after'));
        if (response.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
      } catch (error) {
        if (error instanceof VapiRequestRejected) throw error;
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
