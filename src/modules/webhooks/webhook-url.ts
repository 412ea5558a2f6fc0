import { lookup } from 'node:dns/promises';
import { ApiError } from '../../common/errors/api-error';
import { isIpLiteral, isPublicAddress } from './ssrf/ip-rules';

/** How long creation waits for the name to resolve; an unresolved name is left to the connect-time check. */
const RESOLVE_TIMEOUT_MS = 2000;

/**
 * Checks a webhook URL at creation/update, by the rules delivery applies (CONTRACTS §7). Always: an absolute
 * URL with a host and no userinfo (credentials would be stored and shown to every `webhooks:read` key). Without
 * WEBHOOK_ALLOW_INSECURE: https only; a local name (`localhost`, also written `localhost.` or in full-width
 * characters, which the URL parser maps to the same ASCII) or a literal non-public address is refused, and a
 * name is resolved now and refused when any answer is not public. Delivery checks again at every connect.
 */
export async function assertWebhookUrl(url: string, allowInsecure: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw ApiError.validation('url', 'url must be an absolute URL');
  }
  const protocols = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(parsed.protocol)) throw ApiError.validation('url', 'url must use https');
  if (!parsed.hostname) throw ApiError.validation('url', 'url must have a host');
  if (parsed.username || parsed.password) {
    throw ApiError.validation('url', 'url must not carry credentials (user:password@)');
  }
  if (allowInsecure) return;
  const host = parsed.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw ApiError.validation('url', 'url must not point to a local address');
  }
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host)) {
      throw ApiError.validation('url', 'url must not point to a private, loopback or reserved address');
    }
    return;
  }
  const answers = await resolve(host);
  if (answers.some((address) => !isPublicAddress(address))) {
    throw ApiError.validation('url', 'url host resolves to a private, loopback or reserved address');
  }
}

/** The addresses a name resolves to now; none when it does not resolve in time (delivery will refuse it then). */
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

/** The URL as shown to API keys: credentials an endpoint created before they were refused are never displayed. */
export function displayedWebhookUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (!parsed.username && !parsed.password)) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
