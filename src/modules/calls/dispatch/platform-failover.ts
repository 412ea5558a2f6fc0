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

/** How long a waiting call's wait may grow to, however many attempts it has made. */
const MAX_WAIT_MS = 300_000;
/** How far before an ambiguous attempt the platform is searched for the call (the two clocks may disagree). */
const CLOCK_SKEW_MS = 60_000;

/**
 * Places a call on its platform, and once on its number's fallback platform when its own cannot be reached
 * (docs/providers.md, "Failover"): a connection error, timeout or 5xx (`unavailable`), never a refusal of the
 * call itself. Failures in a row are counted per platform in PostgreSQL (every process sees the same count); at
 * FAILOVER_THRESHOLD the platform is skipped for PLATFORM_FAILOVER_COOLDOWN_MS, one probe per cooldown excepted.
 * A call whose number has no fallback waits for its platform instead (placeOrWait).
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
    if (!fallback) return this.placeOrWait(call);
    const attempts: PlatformAttempt[] = [...(call.platformAttempts ?? [])];
    if (!(await this.health.mayTry(call.platform, FAILOVER_THRESHOLD, this.cooldownMs))) {
      this.metrics.platformPlacements.inc({ platform: call.platform, outcome: 'skipped' });
      attempts.push({
        platform: call.platform,
        at: new Date().toISOString(),
        error: 'skipped: the platform is cooling down',
      });
      return this.placeOnFallback(call, fallback, attempts);
    }
    const result = await this.attempt(call);
    if (result.kind === 'rejected' && result.unavailable) {
      attempts.push({ platform: call.platform, at: new Date().toISOString(), error: result.endedReason });
      return this.placeOnFallback(call, fallback, attempts);
    }
    return result;
  }

  /**
   * A call without a fallback (docs/providers.md, "Waiting for the platform"): while its platform cools down, or
   * when the platform fails to place it (unavailable), the call goes back to wait, as a call deferred by a full
   * pool does, and is placed again after a backoff; past PLATFORM_WAIT_MAX_ATTEMPTS attempts it ends as the
   * platform's failure (in error). After an attempt that may have placed the call, the platform is asked for it
   * first: found, the call is that one; not found, it is placed; unknown (or a platform that cannot be asked),
   * it is never placed again (a customer is not rung twice).
   */
  private async placeOrWait(call: Call): Promise<PlaceCallResult> {
    // The simulator runs in-process and never fails to place: its calls skip the health check's statement.
    const remote = call.platform !== 'simulator';
    if (remote && !(await this.health.mayTry(call.platform, FAILOVER_THRESHOLD, this.cooldownMs))) {
      this.metrics.platformPlacements.inc({ platform: call.platform, outcome: 'skipped' });
      const endedReason = `${call.platform}-unavailable: skipped while the platform cools down`;
      return this.waitOrEnd(call, { kind: 'rejected', endedReason, unavailable: true }, false);
    }
    if (call.unconfirmedPlacementAt) {
      const found = await this.findPlaced(call, call.unconfirmedPlacementAt);
      if (found === undefined) {
        const endedReason = `${call.platform}-unavailable: could not learn whether an earlier attempt placed the call`;
        return this.waitOrEnd(call, { kind: 'rejected', endedReason, unavailable: true, uncertain: true }, true);
      }
      if (found) {
        this.logger.warn({ callId: call.id, providerCallId: found }, 'An ambiguous placement had placed the call');
        // The platform answered and had placed the call: its run of failures ends as after a placement.
        await this.health.succeeded(call.platform);
        return { kind: 'placed', providerCallId: found };
      }
    }
    const result = await this.attempt(call);
    if (result.kind !== 'rejected' || !result.unavailable) return result;
    return this.waitOrEnd(call, result, result.uncertain === true);
  }

  /** The call's platform id if the platform has it, null if it has not, undefined when it cannot tell now. */
  private async findPlaced(call: Call, since: Date): Promise<string | null | undefined> {
    const provider = this.platforms.of(call);
    if (!provider.findPlaced) return undefined;
    try {
      return await provider.findPlaced(call, new Date(since.getTime() - CLOCK_SKEW_MS));
    } catch (error) {
      this.logger.warn({ callId: call.id, err: (error as Error).message }, 'Voice platform could not be searched');
      return undefined;
    }
  }

  /**
   * The call waits for its platform, the failed attempt kept, unless it has used its attempts, or the attempt
   * may have placed it on a platform that cannot be asked: then it ends with the platform's failure.
   */
  private waitOrEnd(
    call: Call,
    failure: Extract<PlaceCallResult, { kind: 'rejected' }>,
    unconfirmed: boolean,
  ): PlaceCallResult {
    const made = (call.platformAttempts ?? []).length + 1;
    const askable = this.platforms.of(call).findPlaced !== undefined;
    if (made >= this.config.platformWait.maxAttempts || (unconfirmed && !askable)) return failure;
    const retryAfterMs = Math.min(this.config.platformWait.retryMs * 2 ** (made - 1), MAX_WAIT_MS);
    const attempt = { platform: call.platform, at: new Date().toISOString(), error: failure.endedReason };
    return { kind: 'deferred', reason: failure.endedReason, retryAfterMs, attempt, unconfirmed };
  }

  private get cooldownMs(): number {
    return this.config.platformFailoverCooldownMs;
  }

  /**
   * The number's fallback, for a live call whose number has one on another configured platform. A call on the
   * simulator never needs one (it never fails to place, see placeOrWait): its number is not read.
   */
  private async fallbackOf(call: Call): Promise<NumberFallback | null> {
    if (!call.livemode || call.direction !== 'outbound' || call.platform === 'simulator') return null;
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
    } else if (result.kind === 'placed' && call.platform !== 'simulator') {
      // The simulator never fails to place (see placeOrWait), so it has no run of failures to end: its
      // placements skip the statement, which locks the platform's row.
      const ended = await this.health.succeeded(call.platform);
      if (ended >= FAILOVER_THRESHOLD)
        this.logger.log({ platform: call.platform, failures: ended }, 'platform.recovered');
    }
    return result;
  }
}
