import { Injectable } from '@nestjs/common';
import { PlatformRegistry } from '../../../common/providers/platform-registry';
import type { VoicePlatform } from '../../../infra/config/platforms';
import { VoiceProvider } from './voice-provider';

/**
 * Every voice platform's adapter, keyed by `calls.platform` (chosen once when the call is made). Placement,
 * supervision, report recovery and a live end all ask the call's own platform, so changing VOICE_PROVIDER (the
 * default for new numbers) never moves a call already made. The adapters live in the platform layer
 * (platforms/voice), whose module binds them here when it is built.
 */
@Injectable()
export class VoicePlatforms extends PlatformRegistry<VoicePlatform, VoiceProvider> {
  constructor() {
    super();
  }
}
