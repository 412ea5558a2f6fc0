import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { Metrics } from '../../../../infra/metrics/metrics';

/** How far an HMAC message's `x-timestamp` may be from our clock, either way. */
export const SIGNATURE_WINDOW_MS = 300_000;
/** Below this a numeric `x-timestamp` is in seconds, above it in milliseconds (1e11 s is the year 5138). */
const SECONDS_BELOW = 1e11;

export type VapiAuthScheme = 'bearer' | 'hmac' | 'legacy' | 'none';

export interface VapiMessageHeaders {
  authorization?: string;
  'x-signature'?: string;
  'x-timestamp'?: string;
  'x-vapi-secret'?: string;
}

const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();
/** Constant time over equal-length digests, so neither the content nor the length of the secret leaks. */
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/** `x-timestamp` in ms (seconds or milliseconds accepted), or null when it is not a number. */
function timestampMs(value: string): number | null {
  if (!/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return n < SECONDS_BELOW ? n * 1000 : n;
}

/**
 * Who may post Vapi server messages (docs/providers.md, "Authenticating Vapi's messages"): any one of Vapi's
 * credential schemes holding VAPI_WEBHOOK_SECRET, checked against the raw body before anything is read from it.
 * The scheme is chosen by the headers present (HMAC when `x-signature` is there, else Bearer, else the legacy
 * header); each check runs in constant time.
 */
@Injectable()
export class VapiMessageAuthenticator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** The scheme that authenticated the message, or null (then 401). */
  authenticate(headers: VapiMessageHeaders, rawBody: Buffer | undefined, now = Date.now()): VapiAuthScheme | null {
    const secret = this.config.vapi.webhookSecret;
    const scheme = schemeOf(headers);
    const ok = !!secret && scheme !== 'none' && this.check(scheme, headers, rawBody, secret, now);
    if (!ok) this.metrics.voiceMessagesRefused.inc({ scheme });
    return ok ? scheme : null;
  }

  private check(
    scheme: Exclude<VapiAuthScheme, 'none'>,
    headers: VapiMessageHeaders,
    rawBody: Buffer | undefined,
    secret: string,
    now: number,
  ): boolean {
    switch (scheme) {
      case 'hmac': {
        const at = timestampMs(headers['x-timestamp'] ?? '');
        if (at === null || Math.abs(now - at) > SIGNATURE_WINDOW_MS || !rawBody) return false;
        const expected = createHmac('sha256', secret)
          .update(`${headers['x-timestamp']}.`)
          .update(rawBody)
          .digest('hex');
        return sameSecret((headers['x-signature'] ?? '').trim().toLowerCase(), expected);
      }
      case 'bearer': {
        const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
        return !!match && sameSecret(match[1].trim(), secret);
      }
      case 'legacy':
        return sameSecret(headers['x-vapi-secret'] ?? '', secret);
    }
  }
}

function schemeOf(headers: VapiMessageHeaders): VapiAuthScheme {
  if (headers['x-signature']) return 'hmac';
  if (headers.authorization) return 'bearer';
  if (headers['x-vapi-secret']) return 'legacy';
  return 'none';
}
