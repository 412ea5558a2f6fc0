import { Agent as HttpAgent, ClientRequestArgs, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, RequestOptions as HttpsRequestOptions, request as httpsRequest } from 'node:https';
import { Logger } from '@nestjs/common';
import { isIpLiteral } from '../url-safety/ip-rules';
import { OutboundUrlPolicy } from '../url-safety/outbound-url-policy';
import { BlockedAddressError, safeLookup } from '../url-safety/safe-lookup';
import { Signing, signedHeaders } from './signature';

/** Bytes of an answer read at most, kept or not, before the connection is dropped rather than drained. */
const DRAIN_LIMIT = 64 * 1024;

/** Why a request did not end in a 2xx answer read whole: the caller decides what each means to it. */
export type OutboundFailure = 'refused' | 'connection' | 'timeout' | 'status' | 'too-large';

export interface OutboundResult {
  statusCode: number | null;
  durationMs: number;
  /** The answer's first `keepBytes` bytes (UTF-8), or null when there was none. */
  body: string | null;
  error: string | null;
  failure: OutboundFailure | null;
  /** How many requests were sent: more than one only after connection errors (`connectionAttempts`). */
  attempts: number;
}

export interface OutboundRequest {
  url: string;
  /** The exact bytes sent (and signed). */
  body: string;
  headers: Record<string, string>;
  /** Signs the body with the receiver's secret (`X-Webhook-Id`, `X-Webhook-Signature`). */
  signing?: Signing;
  /** One deadline for the whole exchange, every attempt included: a 2xx that comes later is a timeout. */
  timeoutMs: number;
  /** Whose request this is: each tenant has its own socket pool per host. */
  tenant: string;
  /** Bytes of the answer kept (at most 64 KB). */
  keepBytes: number;
  /** An answer longer than `keepBytes` fails as `too-large` instead of being cut to an excerpt. */
  refuseLonger?: boolean;
  /** Requests sent at most when the connection fails before any answer (never after an answer). Default 1. */
  connectionAttempts?: number;
}

export interface OutboundClientOptions {
  /** Names the client in its log lines (`webhooks`, `tools`). */
  name: string;
  /** Sockets per (host, tenant): a tenant whose receivers hang holds only its own sockets to a shared host. */
  socketsPerTenant: number;
  /** Which addresses each protocol may reach; applied to the addresses actually connected to. */
  policy: OutboundUrlPolicy;
}

/** The tenant a request is sent for, carried in the request options to the agent's pool key. */
type TenantOptions = { tenant?: string };

/** An agent whose pools are per (origin, tenant): `maxSockets` then bounds one tenant's sockets to one host. */
class TenantHttpAgent extends HttpAgent {
  override getName(options?: ClientRequestArgs & TenantOptions): string {
    return `${super.getName(options)}:${options?.tenant ?? ''}`;
  }
}
class TenantHttpsAgent extends HttpsAgent {
  override getName(options?: HttpsRequestOptions & TenantOptions): string {
    return `${super.getName(options)}:${options?.tenant ?? ''}`;
  }
}

type AttemptResult = Omit<OutboundResult, 'attempts'>;

/**
 * The one way the service POSTs to a customer's URL (webhooks, function tools). Every connection is vetted by
 * the outbound URL rules (OutboundUrlPolicy: at connect time, on the addresses resolved, so DNS rebinding gains
 * nothing); redirects are never followed (node:http does not); the whole exchange has one deadline; at most 64 KB
 * of an answer is ever read; every failure comes back as a result, never a throw. Keep-alive agents let a busy
 * receiver reuse sockets; a pooled socket was vetted when it was opened. Sockets are pooled per receiving host
 * and tenant, at most `socketsPerTenant` each.
 */
export class OutboundHttpClient {
  private readonly logger: Logger;
  private readonly https: HttpsAgent;
  private readonly http: HttpAgent;
  private readonly policy: OutboundUrlPolicy;

  constructor(options: OutboundClientOptions) {
    this.logger = new Logger(`OutboundHttp:${options.name}`);
    this.policy = options.policy;
    // Every socket of a pool stays open when idle: with fewer, a tenant sending at full share to one host closed
    // and reopened a connection per request (measured: connect and close were ~3 % of the server's CPU in a
    // burst). The pool is bounded by the tenant's share all the same, and the receiver closes what it finds idle.
    const pool = { keepAlive: true, maxSockets: options.socketsPerTenant, maxFreeSockets: options.socketsPerTenant };
    const vetted = (protocol: 'http:' | 'https:') =>
      this.policy.allowInsecure ? {} : { lookup: safeLookup(this.policy, protocol) };
    this.https = new TenantHttpsAgent({ ...pool, ...vetted('https:') });
    this.http = new TenantHttpAgent({ ...pool, ...vetted('http:') });
  }

  async post(request: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const headers = {
      ...request.headers,
      ...(request.signing ? signedHeaders(request.signing, request.body) : {}),
      'content-length': Buffer.byteLength(request.body).toString(),
    };
    const maxAttempts = Math.max(1, request.connectionAttempts ?? 1);
    let attempts = 0;
    let result: AttemptResult;
    do {
      attempts++;
      const left = request.timeoutMs - (performance.now() - started);
      result = await this.attempt(request, headers, left, started);
    } while (
      result.failure === 'connection' &&
      attempts < maxAttempts &&
      performance.now() - started < request.timeoutMs
    );
    this.logger.debug(
      {
        host: safeHost(request.url),
        tenant: request.tenant,
        status: result.statusCode,
        durationMs: result.durationMs,
        attempts,
        error: result.error,
      },
      result.error ? 'Outbound request failed' : 'Outbound request answered',
    );
    return { ...result, attempts };
  }

  private attempt(
    request: OutboundRequest,
    headers: Record<string, string>,
    timeoutMs: number,
    started: number,
  ): Promise<AttemptResult> {
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (failure: OutboundFailure, error: string): AttemptResult => ({
      statusCode: null,
      durationMs: elapsed(),
      body: null,
      error,
      failure,
    });
    if (timeoutMs <= 0) return Promise.resolve(fail('timeout', `timeout after ${request.timeoutMs} ms`));

    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      return Promise.resolve(fail('refused', 'invalid url'));
    }
    const secure = target.protocol === 'https:';
    if (!this.policy.protocols().includes(target.protocol)) {
      return Promise.resolve(
        fail('refused', secure || target.protocol === 'http:' ? 'only https URLs are allowed' : 'unsupported protocol'),
      );
    }
    // A literal IP never goes through `lookup`, so it is judged here.
    const literalProblem = isIpLiteral(target.hostname)
      ? this.policy.addressProblem(target.hostname, target.protocol)
      : null;
    if (literalProblem) return Promise.resolve(fail('refused', literalProblem));
    const send = secure ? httpsRequest : httpRequest;

    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const requestOptions: HttpsRequestOptions & TenantOptions = {
        method: 'POST',
        agent: secure ? this.https : this.http,
        tenant: request.tenant,
        headers,
      };
      const req = send(target, requestOptions);
      const deadline = setTimeout(() => {
        req.destroy();
        finish(fail('timeout', `timeout after ${request.timeoutMs} ms`));
      }, timeoutMs);
      req.on('error', (err: Error) =>
        finish(fail(err instanceof BlockedAddressError ? 'refused' : 'connection', err.message || String(err))),
      );
      req.on('response', (res: IncomingMessage) =>
        this.read(res, req, request, elapsed, (result) =>
          // Timers can fire late on a busy event loop: an answer that took longer than the deadline still failed.
          finish(
            result.durationMs > request.timeoutMs
              ? {
                  ...result,
                  failure: 'timeout',
                  error: `timeout after ${request.timeoutMs} ms (status ${result.statusCode} came too late)`,
                }
              : result,
          ),
        ),
      );
      req.end(request.body);
    });
  }

  /** Reads at most DRAIN_LIMIT bytes of the answer, keeping `keepBytes`; past the limit the socket is dropped. */
  private read(
    res: IncomingMessage,
    req: { destroy(): void },
    request: OutboundRequest,
    elapsed: () => number,
    finish: (r: AttemptResult) => void,
  ): void {
    const keep = Math.min(request.keepBytes, DRAIN_LIMIT);
    const chunks: Buffer[] = [];
    let seen = 0;
    const done = () => {
      const statusCode = res.statusCode ?? 0;
      const body = Buffer.concat(chunks).subarray(0, keep).toString('utf8');
      const redirect = statusCode >= 300 && statusCode < 400;
      const ok = statusCode >= 200 && statusCode < 300;
      const tooLarge = ok && request.refuseLonger === true && seen > keep;
      finish({
        statusCode,
        durationMs: elapsed(),
        body: body || null,
        failure: tooLarge ? 'too-large' : ok ? null : 'status',
        error: tooLarge
          ? `answer larger than ${keep} bytes`
          : ok
            ? null
            : redirect
              ? `redirect not followed (status ${statusCode})`
              : `non-2xx response (status ${statusCode})`,
      });
    };
    res.on('data', (chunk: Buffer) => {
      if (seen < keep) chunks.push(chunk);
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) {
        done();
        req.destroy();
      }
    });
    res.on('end', done);
    res.on('error', done);
  }
}

/** The host a request went to, for logs (never the path or query, which may carry a customer's tokens). */
function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}
