import { AppConfig } from '../../../../infra/config/app-config';

/** The WhatsApp Cloud API settings (docs/providers.md), read from the raw environment as provider secrets are. */
export interface WhatsAppConfig {
  /** The process-wide token: accounts without a token of their own send with it. */
  accessToken?: string;
  graphUrl: string;
  appSecret?: string;
  verifyToken?: string;
  /** The process-wide WhatsApp Business Account id: accounts without their own sync templates from it. */
  wabaId?: string;
  /**
   * Further attempts of a send Meta refused for rate (130429, 131056, 4, 80007) or its own trouble (1, 2, 131000,
   * 131016), made by the send queue with exponential backoff from retryBaseMs; past them the message fails.
   */
  maxRetries: number;
  retryBaseMs: number;
  /** Sends per second from one phone number (Meta's Cloud API throughput: 80 by default, more when upgraded). */
  sendRatePerSecond: number;
  /** The pair rate: one message per this interval to one user from one number, after a burst of recipientBurst. */
  recipientIntervalMs: number;
  recipientBurst: number;
  /** A pacing wait up to this long is waited in the request; a longer one sends from the queue (POST: accepted). */
  inlineWaitMs: number;
  /** How long one Graph API request may take before it is abandoned. */
  requestTimeoutMs: number;
  /**
   * A send left without an answer (timed out, connection lost) may have reached Meta: the queue waits this long for
   * Meta's status webhook (which names our message) before sending it again.
   */
  reconcileWaitMs: number;
  /** The largest media file our route streams (bytes). */
  mediaMaxBytes: number;
}

/**
 * Graph API v25.0: the version whose shapes our types (@great-detail/whatsapp) describe, served by Meta until
 * 2028-07-29 (docs/providers.md says how to move to a later one with WHATSAPP_GRAPH_URL).
 */
export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com/v25.0';
/** WhatsApp's own ceiling for any media file (documents, 100 MB); smaller limits are the operator's choice. */
export const DEFAULT_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

const intOr = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);

/** Meta's default Cloud API throughput per business phone number (messages per second). */
export const DEFAULT_SEND_RATE_PER_SECOND = 80;
/** Meta's pair rate limit: about one message every 6 seconds to one user, after a short burst. */
export const DEFAULT_RECIPIENT_INTERVAL_MS = 6000;
export const DEFAULT_RECIPIENT_BURST = 10;

export function whatsAppConfig(config: AppConfig): WhatsAppConfig {
  const raw = config.raw;
  return {
    accessToken: raw.WHATSAPP_ACCESS_TOKEN || undefined,
    graphUrl: (raw.WHATSAPP_GRAPH_URL || DEFAULT_GRAPH_URL).replace(/\/+$/, ''),
    appSecret: raw.WHATSAPP_APP_SECRET || undefined,
    verifyToken: raw.WHATSAPP_VERIFY_TOKEN || undefined,
    wabaId: raw.WHATSAPP_WABA_ID || undefined,
    maxRetries: intOr(raw.WHATSAPP_MAX_RETRIES, 3),
    retryBaseMs: intOr(raw.WHATSAPP_RETRY_BASE_MS, 500),
    sendRatePerSecond: intOr(raw.WHATSAPP_SEND_RATE_PER_SECOND, DEFAULT_SEND_RATE_PER_SECOND),
    recipientIntervalMs: intOr(raw.WHATSAPP_RECIPIENT_INTERVAL_MS, DEFAULT_RECIPIENT_INTERVAL_MS),
    recipientBurst: intOr(raw.WHATSAPP_RECIPIENT_BURST, DEFAULT_RECIPIENT_BURST),
    inlineWaitMs: intOr(raw.WHATSAPP_SEND_INLINE_WAIT_MS, 1000),
    requestTimeoutMs: intOr(raw.WHATSAPP_REQUEST_TIMEOUT_MS, 10_000),
    reconcileWaitMs: intOr(raw.WHATSAPP_RECONCILE_WAIT_MS, 120_000),
    mediaMaxBytes: intOr(raw.WHATSAPP_MEDIA_MAX_BYTES, DEFAULT_MEDIA_MAX_BYTES),
  };
}

/**
 * Where Meta serves media files (the `url` of `GET /{media-id}`, `lookaside.fbsbx.com` today) and its CDNs: the
 * only hosts, besides the configured Graph API's own, that a media download sends the bearer token to.
 */
export const META_MEDIA_DOMAINS = ['fbsbx.com', 'fbcdn.net', 'whatsapp.net'] as const;

/**
 * Whether a media location's host is one of Meta's media domains (or a subdomain of one) or WHATSAPP_GRAPH_URL's
 * host: in production that is graph.facebook.com, and in tests it is the fake Graph API, which serves its files
 * from its own origin (the address rules still apply to it: WEBHOOK_ALLOW_INSECURE lets tests reach 127.0.0.1).
 */
export function isMediaHost(url: string, graphUrl: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.+$/, '');
  } catch {
    return false;
  }
  if (host === new URL(graphUrl).hostname.toLowerCase()) return true;
  return META_MEDIA_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
