import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConfigError } from '../../infra/config/app-config';
import { VOICE_PLATFORMS, voicePlatformConfigured } from '../../infra/config/platforms';
import { PhoneNumbersRepository } from './phone-numbers.repository';

/** What each platform needs set before its numbers can be served (named in the refusal). */
const CREDENTIALS = { simulator: '', vapi: 'VAPI_API_KEY and VAPI_WEBHOOK_SECRET', retell: 'RETELL_API_KEY' } as const;

/**
 * At start-up: every phone number's platform must be one this process can reach. A number on a platform whose
 * credentials were removed would have its calls placed, supervised and ended nowhere, so start-up stops with
 * one line naming the platform and what to set (docs/providers.md, "The platform per number").
 */
@Injectable()
export class PlatformCredentialsCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly numbers: PhoneNumbersRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const counts = await this.numbers.countByPlatform();
    for (const platform of VOICE_PLATFORMS) {
      const n = counts.get(platform) ?? 0;
      if (n && !voicePlatformConfigured(this.config, platform)) {
        throw new ConfigError(
          `Invalid environment: ${n} phone number(s) are on the ${platform} platform, whose credentials are not ` +
            `set (${CREDENTIALS[platform]})`,
        );
      }
    }
  }
}
