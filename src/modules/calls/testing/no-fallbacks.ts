import type { AppConfig } from '../../../infra/config/app-config';
import type { Metrics } from '../../../infra/metrics/metrics';
import { fakeOf } from '../../../infra/testing/fake-of';
import type { PhoneNumbersService } from '../../phone-numbers/phone-numbers.service';
import type { CallsRepository } from '../calls.repository';
import { PlatformFailover } from '../dispatch/platform-failover';
import type { PlatformHealthRepository } from '../dispatch/platform-health.repository';
import type { VoicePlatforms } from '../voice/voice-platforms';

/**
 * Placement as the dispatcher does it, for specs of the dispatch around it: every number without a fallback, so
 * each call is placed on its own platform, and waits for it (at most 3 attempts, 5 s apart and doubling) while it
 * is unavailable (the failover itself: test/voice/platform-failover.e2e-spec.ts).
 */
export function placementWithoutFallbacks(platforms: VoicePlatforms, metrics: Pick<Metrics, 'platformPlacements'>) {
  return new PlatformFailover(
    platforms,
    fakeOf<CallsRepository>({}),
    fakeOf<PhoneNumbersService>({ findByNumber: () => Promise.resolve(null) }),
    fakeOf<PlatformHealthRepository>({
      mayTry: () => Promise.resolve(true),
      failed: () => Promise.resolve(1),
      succeeded: () => Promise.resolve(0),
    }),
    metrics as Metrics,
    fakeOf<AppConfig>({ platformFailoverCooldownMs: 60_000, platformWait: { retryMs: 5_000, maxAttempts: 3 } }),
  );
}
