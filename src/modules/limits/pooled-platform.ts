import type { AppConfig } from '../../infra/config/app-config';
import { VoicePlatform, voicePlatformConfigured } from '../../infra/config/platforms';

/**
 * The voice platforms whose account pool bounds their live calls, all organizations together
 * (VAPI_MAX_CONCURRENT_CALLS, RETELL_MAX_CONCURRENT_CALLS); the simulator has none. A call counts in the pool of
 * the platform it stores.
 */
export const POOLED_PLATFORMS = ['vapi', 'retell'] as const satisfies readonly VoicePlatform[];
export type PooledPlatform = (typeof POOLED_PLATFORMS)[number];

export const isPooled = (platform: VoicePlatform): platform is PooledPlatform =>
  (POOLED_PLATFORMS as readonly VoicePlatform[]).includes(platform);

/** The platform's pool size, or null when it has none or this service cannot reach it. */
export function poolSizeOf(config: Pick<AppConfig, 'vapi' | 'retell'>, platform: VoicePlatform): number | null {
  if (!isPooled(platform) || !voicePlatformConfigured(config, platform)) return null;
  return config[platform].maxConcurrentCalls;
}
