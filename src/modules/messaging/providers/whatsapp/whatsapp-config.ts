import { AppConfig } from '../../../../infra/config/app-config';

/** The WhatsApp Cloud API settings (CONTRACTS §5), read from the raw environment as provider secrets are. */
export interface WhatsAppConfig {
  accessToken?: string;
  graphUrl: string;
  appSecret?: string;
  verifyToken?: string;
}

export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com/v21.0';

export function whatsAppConfig(config: AppConfig): WhatsAppConfig {
  const raw = config.raw;
  return {
    accessToken: raw.WHATSAPP_ACCESS_TOKEN || undefined,
    graphUrl: (raw.WHATSAPP_GRAPH_URL || DEFAULT_GRAPH_URL).replace(/\/+$/, ''),
    appSecret: raw.WHATSAPP_APP_SECRET || undefined,
    verifyToken: raw.WHATSAPP_VERIFY_TOKEN || undefined,
  };
}
