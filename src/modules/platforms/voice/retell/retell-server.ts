import type { AppConfig } from '../../../../infra/config/app-config';

/** Where Retell reaches us: `/events` (call webhooks), `/tools` (custom functions), `/inbound` (inbound webhook). */
export const RETELL_PATH = '/platform/retell';

/** `<PUBLIC_BASE_URL>/platform/retell` (unset outside production: the service's own local address). */
export function retellBaseUrl(config: Pick<AppConfig, 'publicBaseUrl' | 'port'>): string {
  return `${config.publicBaseUrl ?? `http://127.0.0.1:${config.port}`}${RETELL_PATH}`;
}
