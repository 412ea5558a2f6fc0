import type { Vapi } from '@vapi-ai/server-sdk';
import type { AppConfig } from '../../../../infra/config/app-config';

/** Where Vapi's server messages arrive (VapiEventsController). */
export const VAPI_EVENTS_PATH = '/platform/vapi/events';

/**
 * The server messages every call asks for: what finishes it (end-of-call-report), moves its status
 * (status-update) and builds its transcript (conversation updates, final transcript lines; partial ones are
 * noise). `assistant-request` is asked by the phone number, not the assistant.
 */
export const VAPI_SERVER_MESSAGES: Vapi.CreateAssistantDtoServerMessagesItem[] = [
  'end-of-call-report',
  'status-update',
  'conversation-update',
  'transcript[transcriptType="final"]',
];

/**
 * The server messages a call asks for: Vapi sends `tool-calls` only to a call that lists it, so a call with function
 * tools (answered through our server, docs/tools.md) lists it too.
 */
export function vapiServerMessages(functionTools: boolean): Vapi.CreateAssistantDtoServerMessagesItem[] {
  return functionTools ? [...VAPI_SERVER_MESSAGES, 'tool-calls'] : [...VAPI_SERVER_MESSAGES];
}

/** Vapi's request timeout for our answers (its default is 20 s; assistant-request must answer well within it). */
const TIMEOUT_SECONDS = 20;
/**
 * Redeliveries of a message our service answered with a 5xx or not at all: 1, 2, 4, 8, 16 s, the
 * VAPI_REDELIVERY_WINDOW_MS that the end-of-call report grace never goes below in production.
 */
export const BACKOFF = { maxRetries: 5, baseDelaySeconds: 1 } as const;

/**
 * The `server` of every call, assistant and phone number we hand Vapi: our events URL, the credential its
 * messages are authenticated with (VAPI_CREDENTIAL_ID; without it the account's default applies), and a backoff
 * plan, without which Vapi sends each message once (docs/providers.md).
 */
export function vapiServer(config: Pick<AppConfig, 'publicBaseUrl' | 'vapi'>): Vapi.Server {
  return {
    ...(config.publicBaseUrl ? { url: `${config.publicBaseUrl}${VAPI_EVENTS_PATH}` } : {}),
    ...(config.vapi.credentialId ? { credentialId: config.vapi.credentialId } : {}),
    timeoutSeconds: TIMEOUT_SECONDS,
    backoffPlan: {
      // SDK 2.0.1 types `type` as an object; Vapi's API takes only the string "fixed" or "exponential".
      type: 'exponential' as unknown as Vapi.BackoffPlan['type'],
      ...BACKOFF,
    },
  };
}
