import { Agent as HttpAgent, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  /** When false (production), only https and public addresses, vetted at connect time. */
  allowInsecure: boolean;
}

/**
 * POSTs one webhook. Redirects are never followed (node:http does not), the whole exchange has one deadline,
 * and every failure comes back as a result, never a throw. Keep-alive agents let a busy endpoint reuse sockets;
 * a pooled socket was vetted when it was opened.
 */
export class WebhookHttpClient {
  private readonly safeHttps = new HttpsAgent({ keepAlive: true, maxSockets: 32, lookup: safeLookup });
  private readonly insecureHttps = new HttpsAgent({ keepAlive: true, maxSockets: 32 });
  private readonly insecureHttp = new HttpAgent({ keepAlive: true, maxSockets: 32 });

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
      const req = send(target, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
      });
      const deadline = setTimeout(() => {
        req.destroy();
        finish(fail(`timeout after ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      req.on('error', (err) => finish(fail(err.message || String(err))));
      req.on('response', (res: IncomingMessage) => this.readExcerpt(res, req, elapsed, finish));
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
