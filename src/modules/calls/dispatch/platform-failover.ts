import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { Metrics } from '../../../infra/metrics/metrics';
import type { NumberFallback } from '../../phone-numbers/phone-number.entity';
import { PhoneNumbersService } from '../../phone-numbers/phone-numbers.service';
import type { Call, PlatformAttempt } from '../call.entity';
import { CallsRepository } from '../calls.repository';
import { PIPELINE_ERROR_REPORT, PlaceCallResult } from '../voice/voice-provider';
import { VoicePlatforms } from '../voice/voice-platforms';
import { PlatformHealthRepository } from './platform-health.repository';

/** Placements failing in a row after which a platform is skipped for numbers with a fallback. */
export const FAILOVER_THRESHOLD = 5;

/**
 * Places a call on its platform, and once on its number's fallback platform when its own cannot be reached
 * (docs/providers.md, "Failover"): a connection error, timeout or 5xx (`unavailable`), never a refusal of the
 * call itself. Failures in a row are counted per platform in PostgreSQL (every process sees the same count); at
 * FAILOVER_THRESHOLD the platform is skipped for numbers with a fallback for PLATFORM_FAILOVER_COOLDOWN_MS, one
 * probe per cooldown excepted. A number without a fallback is placed as before, whatever the count.
 */
@Injectable()
export class PlatformFailover {
  private readonly logger = new Logger(PlatformFailover.name);

  constructor(
    private readonly platforms: VoicePlatforms,
    private readonly calls: CallsRepository,
    private readonly numbers: PhoneNumbersService,
    private readonly health: PlatformHealthRepository,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async place(call: Call): Promise<PlaceCallResult> {
    const fallback = await this.fallbackOf(call);
    const attempts: PlatformAttempt[] = [...(call.platformAttempts ?? [])];
    if (fallback && !(await this.health.mayTry(call.platform, FAILOVER_THRESHOLD, this.cooldownMs))) {
      this.metrics.platformPlacements.inc({ platform: call.platform, outcome: 'skipped' });
      attempts.push({
        platform: call.platform,
        at: new Date().toISOString(),
        error: 'skipped: the platform is cooling down',
      });
      return this.placeOnFallback(call, fallback, attempts);
    }
    const result = await this.attempt(call);
    if (result.kind === 'rejected' && result.unavailable && fallback) {
      attempts.push({ platform: call.platform, at: new Date().toISOString(), error: result.endedReason });
      return this.placeOnFallback(call, fallback, attempts);
    }
    return result;
  }

  private get cooldownMs(): number {
    return this.config.platformFailoverCooldownMs;
  }

  /** The number's fallback, for a live call whose number has one on another configured platform. */
  private async fallbackOf(call: Call): Promise<NumberFallback | null> {
    if (!call.livemode || call.direction !== 'outbound') return null;
    const number = await this.numbers.findByNumber(call.callFrom);
    const fallback = number?.organizationId === call.organizationId ? number.fallback : null;
    return fallback && fallback.platform !== call.platform ? fallback : null;
  }

  private async placeOnFallback(
    call: Call,
    fallback: NumberFallback,
    attempts: PlatformAttempt[],
  ): Promise<PlaceCallResult> {
    const moved = await this.calls.switchPlatform(call.id, fallback.platform, fallback.providerId, attempts);
    if (!moved) return { kind: 'rejected', endedReason: attempts.at(-1)!.error };
    this.metrics.platformFailovers.inc({ from: call.platform, to: fallback.platform });
    this.logger.warn({ callId: call.id, from: call.platform, to: fallback.platform }, 'platform.failover');
    return this.attempt(moved);
  }

  /** One placement on the call's platform, counted, its platform's run of failures kept. */
  private async attempt(call: Call): Promise<PlaceCallResult> {
    let result: PlaceCallResult;
    try {
      result = await this.platforms.of(call).placeCall(call);
    } catch (error) {
      this.logger.warn({ callId: call.id, err: (error as Error).message }, 'Voice platform failed to place the call');
      result = { kind: 'rejected', endedReason: PIPELINE_ERROR_REPORT.endedReason };
    }
    const unavailable = result.kind === 'rejected' && result.unavailable === true;
    this.metrics.platformPlacements.inc({
      platform: call.platform,
      outcome: unavailable ? 'unavailable' : result.kind,
    });
    if (unavailable) {
      const failures = await this.health.failed(call.platform, FAILOVER_THRESHOLD, this.cooldownMs);
      if (failures === FAILOVER_THRESHOLD) {
        this.logger.warn({ platform: call.platform, failures, cooldownMs: this.cooldownMs }, 'platform.degraded');
      }
    } else if (result.kind === 'placed') {
      const ended = await this.health.succeeded(call.platform);
      if (ended >= FAILOVER_THRESHOLD)
        this.logger.log({ platform: call.platform, failures: ended }, 'platform.recovered');
    }
    return result;
  }
}
