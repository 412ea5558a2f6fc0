import { ProviderRejectionCode } from '../../../messaging/providers/messaging-provider';

/**
 * What each of Meta's error codes means for a send (docs/providers.md has the table):
 * - `reject`: refused with this public code and answered at once (422 for what the customer can fix, 502 for what
 *   the operator must fix on the WhatsApp account), with Meta's code in details and `title` as the reason;
 * - `rate`: a rate limit: the send waits in the send queue (paced) and is tried again, POST answers `accepted`;
 * - `transient`: Meta could not take the message now: tried again by the send queue with backoff, same answer;
 * - `token`: the account's access token was refused: our side to fix, answered 502 naming the account.
 * Any other code is a 502 MESSAGING_API_ERROR that still carries Meta's code.
 */
export type GraphErrorOutcome =
  | { outcome: 'reject'; code: ProviderRejectionCode; title?: string }
  | { outcome: 'rate' }
  | { outcome: 'transient' }
  | { outcome: 'token' };

/** The account's WhatsApp standing stops every send from it: the operator must act, so 502 with Meta's code. */
const account = (title: string): GraphErrorOutcome => ({ outcome: 'reject', code: 'MESSAGING_API_ERROR', title });

export const GRAPH_ERROR_OUTCOMES: Readonly<Record<number, GraphErrorOutcome>> = {
  // More than 24 hours since the user last wrote: only a template may be sent.
  131047: { outcome: 'reject', code: 'SESSION_EXPIRED' },
  // Message undeliverable (not a WhatsApp user, old app, terms not accepted, ...).
  131026: { outcome: 'reject', code: 'MESSAGE_UNDELIVERABLE' },
  // Meta chose not to deliver, to keep the ecosystem healthy (too many marketing messages to this user).
  131049: { outcome: 'reject', code: 'MESSAGE_UNDELIVERABLE' },
  // The recipient cannot be reached this way (a user Meta will not take this message for); nothing to retry.
  131062: {
    outcome: 'reject',
    code: 'MESSAGE_UNDELIVERABLE',
    title: 'WhatsApp will not deliver this message to this recipient',
  },
  // Template parameters do not match, the template does not exist in that language, is paused or disabled.
  132000: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132001: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132015: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  132016: { outcome: 'reject', code: 'TEMPLATE_INVALID' },
  // Rate limits: Cloud API throughput (130429), one user too often (131056, the pair rate), the app's call rate
  // (4) and the business account's (80007). Waiting is the cure.
  130429: { outcome: 'rate' },
  131056: { outcome: 'rate' },
  4: { outcome: 'rate' },
  80007: { outcome: 'rate' },
  // Meta's own trouble: unknown error (1), service down or overloaded (2), "something went wrong" (131000),
  // a service temporarily unavailable (131016).
  1: { outcome: 'transient' },
  2: { outcome: 'transient' },
  131000: { outcome: 'transient' },
  131016: { outcome: 'transient' },
  // The sending number is restricted because too many of its messages were blocked or reported as spam.
  131048: account('The sending number is restricted by WhatsApp for spam reports; check its quality rating'),
  // The business account's payment method is missing or failed.
  131042: account('The WhatsApp Business Account has a payment problem; check its payment method'),
  // The sending number is not registered on the Cloud API.
  133010: account('The sending phone number is not registered on the WhatsApp Cloud API'),
  // The business account is locked (policy violation or failed verification).
  131031: account('The WhatsApp Business Account is locked; see its status in WhatsApp Manager'),
  // Access token expired, revoked or without permission for this number.
  190: { outcome: 'token' },
};

export const outcomeOf = (code: number): GraphErrorOutcome | undefined => GRAPH_ERROR_OUTCOMES[code];
