import { ApiError } from '../../common/errors/api-error';
import { isIpLiteral, isPublicAddress } from './ssrf/ip-rules';

/**
 * Checks a webhook URL at creation/update. Without WEBHOOK_ALLOW_INSECURE: https only, and a literal address
 * (or `localhost`) must be public. Host names are checked again, after resolution, at every connect.
 */
export function assertWebhookUrl(url: string, allowInsecure: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw ApiError.validation('url', 'url must be an absolute URL');
  }
  const protocols = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(parsed.protocol)) throw ApiError.validation('url', 'url must use https');
  if (!parsed.hostname) throw ApiError.validation('url', 'url must have a host');
  if (allowInsecure) return;
  const host = parsed.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw ApiError.validation('url', 'url must not point to a local address');
  }
  if (isIpLiteral(host) && !isPublicAddress(host)) {
    throw ApiError.validation('url', 'url must not point to a private, loopback or reserved address');
  }
}
