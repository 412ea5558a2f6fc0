import { Agent as HttpAgent, ClientRequestArgs, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, RequestOptions as HttpsRequestOptions, request as httpsRequest } from 'node:https';
import { isIpLiteral } from '../../../common/url-safety/ip-rules';
import { OutboundUrlPolicy } from '../../../common/url-safety/outbound-url-policy';
import { safeLookup } from '../../../common/url-safety/safe-lookup';

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
  private readonly https: HttpsAgent;
  private readonly http: HttpAgent;

  /** `policy` says which addresses each protocol may reach; it is applied to the addresses connected to. */
  constructor(
    socketsPerTenant: number,
    private readonly policy: OutboundUrlPolicy,
  ) {
    // Every socket of a pool stays open when idle: with fewer, a tenant sending at full share to one host closed
    // and reopened a connection per request (measured: connect and close were ~3 % of the server's CPU in a
    // burst). The pool is bounded by the tenant's share all the same, and the receiver closes what it finds idle.
    const pool = { keepAlive: true, maxSockets: socketsPerTenant, maxFreeSockets: socketsPerTenant };
    const vetted = (protocol: 'http:' | 'https:') =>
      policy.allowInsecure ? {} : { lookup: safeLookup(policy, protocol) };
    this.https = new TenantHttpsAgent({ ...pool, ...vetted('https:') });
    this.http = new TenantHttpAgent({ ...pool, ...vetted('http:') });
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
    if (!this.policy.protocols().includes(target.protocol)) {
      return Promise.resolve(
        fail(secure || target.protocol === 'http:' ? 'only https URLs are allowed' : 'unsupported protocol'),
      );
    }
    // A literal IP never goes through `lookup`, so it is judged here.
    const literalProblem = isIpLiteral(target.hostname)
      ? this.policy.addressProblem(target.hostname, target.protocol)
      : null;
    if (literalProblem) return Promise.resolve(fail(literalProblem));
    const agent = secure ? this.https : this.http;
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
