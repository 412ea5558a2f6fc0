import { AppConfig } from '../../infra/config/app-config';
import { CONSOLE_PATH } from './console-static';

/**
 * The demo's one-click console sign-in: the token rides in the URL fragment, which the browser never sends to
 * the server; the page exchanges it for a session and drops it from the address bar. Development only, where
 * the admin token is the demo's own; elsewhere nothing is printed.
 */
export function consoleSignInLines(base: string, config: Pick<AppConfig, 'env' | 'adminToken'>): string[] {
  if (config.env !== 'development' || !config.adminToken) return [];
  return [`  Console:      ${base}${CONSOLE_PATH}/sign-in#token=${encodeURIComponent(config.adminToken)}`];
}
