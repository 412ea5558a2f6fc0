import type { VoicePlatform } from '../../infra/config/platforms';

/**
 * The voice platform whose account pool (VAPI_MAX_CONCURRENT_CALLS) bounds its live calls, all organizations
 * together; the simulator has none. A call counts in the pool by the platform it stores.
 */
export const POOLED_PLATFORM: VoicePlatform = 'vapi';
