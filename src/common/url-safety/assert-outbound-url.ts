import { lookup } from 'node:dns/promises';
import { ApiError } from '../errors/api-error';
import { isIpLiteral } from './ip-rules';
import { OutboundUrlPolicy } from './outbound-url-policy';

/** How long a check waits for the name to resolve; an unresolved name is left to the connect-time check. */
const RESOLVE_TIMEOUT_MS = 2000;

/**
 * Checks a URL the service will call for a customer (a webhook endpoint, a function tool) when it is saved, by
 * the rules the connection applies again (OutboundUrlPolicy, safeLookup). Always: an absolute URL with a host
 * and no userinfo (credentials would be stored and shown to every key that reads it). Then `policy`: https to
 * public addresses, or http/https into WEBHOOK_PRIVATE_NETWORKS; without private networks a local name
 * (`localhost`, also written `localhost.` or in full-width characters, which the URL parser maps to the same
 * ASCII) is refused outright. A name is resolved now and refused when any answer is not allowed. 400
 * VALIDATION_ERROR naming `field`.
 */
export async function assertOutboundUrl(url: string, policy: OutboundUrlPolicy, field = 'url'): Promise<void> {
  const refuse = (message: string) => ApiError.validation(field, `${field} ${message}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('must be an absolute URL');
  }
  if (!policy.protocols().includes(parsed.protocol)) throw refuse('must use https');
  if (!parsed.hostname) throw refuse('must have a host');
  if (parsed.username || parsed.password) throw refuse('must not carry credentials (user:password@)');
  if (policy.allowInsecure) return;
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, '');
  if (!policy.hasPrivateNetworks && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw refuse('must not point to a local address');
  }
  const addresses = isIpLiteral(host) ? [host] : await resolve(host);
  for (const address of addresses) {
    if (!policy.addressProblem(address, parsed.protocol)) continue;
    if (parsed.protocol !== 'https:') throw refuse('must use https outside WEBHOOK_PRIVATE_NETWORKS');
    throw refuse(
      isIpLiteral(host)
        ? 'must not point to a private, loopback or reserved address'
        : 'host resolves to a private, loopback or reserved address',
    );
  }
  // An http URL whose name does not resolve now cannot be shown to lead into the private networks.
  if (parsed.protocol !== 'https:' && !addresses.length) {
    throw refuse('must use https outside WEBHOOK_PRIVATE_NETWORKS');
  }
}

/** The addresses a name resolves to now; none when it does not resolve in time (the connection will refuse it). */
async function resolve(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), RESOLVE_TIMEOUT_MS);
  });
  const answers = lookup(host, { all: true }).then(
    (found) => found.map((a) => a.address),
    () => [] as string[],
  );
  try {
    return await Promise.race([answers, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
