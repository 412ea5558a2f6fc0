import type { AppConfig } from './app-config';

/**
 * The voice platforms a phone number (and so a call) may be on. Stored on each row (`phone_numbers.platform`,
 * `calls.platform`), so which platform serves a call is data fixed when the row is made, never the process's
 * setting at the time it is read (docs/providers.md, "The platform per number").
 */
export const VOICE_PLATFORMS = ['simulator', 'vapi', 'retell'] as const;
export type VoicePlatform = (typeof VOICE_PLATFORMS)[number];

/** The messaging platforms a messaging account may be on (`messaging_accounts.platform`). */
export const MESSAGING_PLATFORMS = ['simulator', 'whatsapp'] as const;
export type MessagingPlatform = (typeof MESSAGING_PLATFORMS)[number];

/** The platforms the chat agent's words may come from (a voice platform's chat API, or the simulator). */
export const CHAT_PLATFORMS = ['simulator', 'vapi'] as const;
export type ChatPlatformName = (typeof CHAT_PLATFORMS)[number];

/**
 * Whether this process can reach the platform: the simulator always; Vapi when its key and the secret its
 * server messages are checked with are both set; Retell when its API key is set (it also signs Retell's events);
 * whatever VOICE_PROVIDER (the default for new numbers) says.
 */
export function voicePlatformConfigured(config: Pick<AppConfig, 'vapi' | 'retell'>, platform: VoicePlatform): boolean {
  switch (platform) {
    case 'simulator':
      return true;
    case 'vapi':
      return Boolean(config.vapi.apiKey && config.vapi.webhookSecret);
    case 'retell':
      return Boolean(config.retell.apiKey);
  }
}
