import { ProviderRejectionCode } from '../messaging-provider';

/**
 * What each of Meta's error codes means for a send (docs/providers.md has the table):
 * - `reject`: refused with this public code (422 for what the customer can fix, with Meta's code in details);
 * - `retry`: a rate limit, so the same send is tried again after a backoff;
 * - `token`: the account's access token was refused: our side to fix, answered 502 naming the account.
 * Any other code is a 502 MESSAGING_API_ERROR that still carries Meta's code.
 */
export type GraphErrorOutcome =
  { outcome: 'reject'; code: ProviderRejectionCode } | { outcome: 'retry' } | { outcome: 'token' };

export const GRAPH_ERROR_OUTCOMES: Readonly<Record<number, GraphErrorOutcome>> = {
  // More than 24 hours since the user last wrote: only a template may be sent.
  131047: { outcome: 'reject', code: 'SESSION_EXPIRED' },
  // Message undeliverable (not a WhatsApp user, old app, terms not accepted, ...).
  131026: { outcome: 'reject', code: 'MESSAGE_UNDELIVERABLE' },
  // Meta chose not to deliver, to keep the ecosystem healthy (too many marketing messages to this user).
  131049: { outcome: 'reject', code: 'MESSAGE_UNDELIVERABLE' },
  // Template parameters do not match, the template does not exist in that language, is paused or disabled.
  132000: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132001: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132015: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132016: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  // Cloud API throughput reached; too many messages to one user in a short time.
  130429: { outcome: 'retry' },
  131056: { outcome: 'retry' },
  // Access token expired, revoked or without permission for this number.
  190: { outcome: 'token' },
};

export const outcomeOf = (code: number): GraphErrorOutcome | undefined => GRAPH_ERROR_OUTCOMES[code];
