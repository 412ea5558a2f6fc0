import { Agent as HttpAgent, ClientRequestArgs, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, RequestOptions as HttpsRequestOptions, request as httpsRequest } from 'node:https';
import { isIpLiteral, isPublicAddress } from '../ssrf/ip-rules';
import { safeLookup } from '../ssrf/safe-lookup';

/** What is kept of a response body: enough to tell an operator why a receiver said no. */
export const RESPONSE_EXCERPT_BYTES = 2048;
/** Bytes read past the excerpt before the connection is dropped rather than drained. */
const DRAIN_LIMIT = 64 * 1024;

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Whose request this is: each tenant has its own socket pool per host (see WebhookHttpClient). */
  tenant: string;
  /** When false (production), only https and public addresses, vetted at connect time. */
  allowInsecure: boolean;
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

/**
 * POSTs one webhook. Redirects are never followed (node:http does not), the whole exchange has one deadline (a
 * 2xx that comes later is a timeout like any other), and every failure comes back as a result, never a throw.
 * Keep-alive agents let a busy endpoint reuse sockets; a pooled socket was vetted when it was opened. Sockets
 * are pooled per receiving host and tenant, at most `socketsPerTenant` each: tenants whose receivers hang hold
 * only their own sockets to a shared host (a hosted webhook inbox), never everyone's.
 */
export class WebhookHttpClient {
  private readonly safeHttps: HttpsAgent;
  private readonly insecureHttps: HttpsAgent;
  private readonly insecureHttp: HttpAgent;

  constructor(socketsPerTenant: number) {
    // Every socket of a pool stays open when idle: with fewer, a tenant sending at full share to one host closed
    // and reopened a connection per request (measured: connect and close were ~3 % of the server's CPU in a
    // burst). The pool is bounded by the tenant's share all the same, and the receiver closes what it finds idle.
    const pool = { keepAlive: true, maxSockets: socketsPerTenant, maxFreeSockets: socketsPerTenant };
    this.safeHttps = new TenantHttpsAgent({ ...pool, lookup: safeLookup });
    this.insecureHttps = new TenantHttpsAgent(pool);
    this.insecureHttp = new TenantHttpAgent(pool);
  }

  post(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (error: string): PostResult => ({
      statusCode: null,
      durationMs: elapsed(),
      responseExcerpt: null,
      error,
    });

    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(fail('invalid url'));
    }
    const secure = target.protocol === 'https:';
    if (!options.allowInsecure) {
      if (!secure) return Promise.resolve(fail('only https URLs are allowed'));
      // A literal IP never goes through `lookup`, so it is judged here.
      if (isIpLiteral(target.hostname) && !isPublicAddress(target.hostname)) {
        return Promise.resolve(fail(`${target.hostname} is not a public address`));
      }
    } else if (!secure && target.protocol !== 'http:') {
      return Promise.resolve(fail('unsupported protocol'));
    }
    const agent = secure ? (options.allowInsecure ? this.insecureHttps : this.safeHttps) : this.insecureHttp;
    const send = secure ? httpsRequest : httpRequest;

    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const requestOptions: HttpsRequestOptions & TenantOptions = {
        method: 'POST',
        agent,
        tenant: options.tenant,
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      };
      const req = send(target, requestOptions);
      const deadline = setTimeout(() => {
        req.destroy();
        finish(fail(`timeout after ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      req.on('error', (err) => finish(fail(err.message || String(err))));
      req.on('response', (res: IncomingMessage) =>
        this.readExcerpt(res, req, elapsed, (result) =>
          // Timers can fire late on a busy event loop: an answer that took longer than the timeout still failed.
          finish(
            result.durationMs > options.timeoutMs
              ? {
                  ...result,
                  error: `timeout after ${options.timeoutMs} ms (status ${result.statusCode} came too late)`,
                }
              : result,
          ),
        ),
      );
      req.end(body);
    });
  }

  private readExcerpt(
    res: IncomingMessage,
    req: { destroy(): void },
    elapsed: () => number,
    finish: (r: PostResult) => void,
  ): void {
    const chunks: Buffer[] = [];
    let seen = 0;
    const done = () => {
      const statusCode = res.statusCode ?? 0;
      const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
      const redirect = statusCode >= 300 && statusCode < 400;
      const error =
        statusCode >= 200 && statusCode < 300
          ? null
          : redirect
            ? `redirect not followed (status ${statusCode})`
            : `non-2xx response (status ${statusCode})`;
      finish({ statusCode, durationMs: elapsed(), responseExcerpt: excerpt || null, error });
    };
    res.on('data', (chunk: Buffer) => {
      if (seen < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
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
