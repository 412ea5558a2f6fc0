import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIpLiteral } from '../url-safety/ip-rules';
import { OutboundUrlPolicy } from '../url-safety/outbound-url-policy';
import { BlockedAddressError, safeLookup } from '../url-safety/safe-lookup';

/** A GET's answer, its body still to read (the caller streams it and must consume or destroy it). */
export type PinnedGetResult =
  { ok: true; response: IncomingMessage } | { ok: false; failure: 'refused' | 'connection' | 'timeout'; error: string };

/**
 * A GET to a URL that came from outside (a provider's answer), under the outbound URL rules (OutboundUrlPolicy)
 * judged on the addresses the connection actually uses: the name is resolved once by safeLookup and the socket is
 * handed exactly the vetted addresses, so a DNS answer that changes between a check and the connect (rebinding)
 * gains nothing. No redirect is followed. `timeoutMs` bounds the wait for the answer's headers; the body then
 * streams for as long as its reader takes (a reader that stops destroys it). Never throws.
 */
export function pinnedGet(
  url: string,
  options: { headers: Record<string, string>; policy: OutboundUrlPolicy; timeoutMs: number },
): Promise<PinnedGetResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ ok: false, failure: 'refused', error: 'invalid url' });
  }
  const { policy } = options;
  const protocol = target.protocol;
  if (!policy.protocols().includes(protocol) || (protocol !== 'https:' && protocol !== 'http:')) {
    return Promise.resolve({ ok: false, failure: 'refused', error: `${protocol} URLs are not allowed here` });
  }
  if (target.username || target.password) {
    return Promise.resolve({ ok: false, failure: 'refused', error: 'a URL carrying credentials is not called' });
  }
  // A literal IP never goes through `lookup`, so it is judged here.
  const literalProblem = isIpLiteral(target.hostname) ? policy.addressProblem(target.hostname, protocol) : null;
  if (literalProblem) return Promise.resolve({ ok: false, failure: 'refused', error: literalProblem });
  const send = protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PinnedGetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
    };
    const req = send(target, {
      method: 'GET',
      headers: options.headers,
      // A fresh connection per download (no pooled socket opened for another name), vetted as it opens.
      agent: false,
      ...(policy.allowInsecure ? {} : { lookup: safeLookup(policy, protocol) }),
    });
    const deadline = setTimeout(() => {
      req.destroy();
      finish({ ok: false, failure: 'timeout', error: `no answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    req.on('error', (err: Error) =>
      finish({
        ok: false,
        failure: err instanceof BlockedAddressError ? 'refused' : 'connection',
        error: err.message || String(err),
      }),
    );
    req.on('response', (response) => finish({ ok: true, response }));
    req.end();
  });
}
