import { statusIn } from '../../infra/database/status-in';
import { CONVERSATION_STATUSES, ConversationStatus } from './conversation.entity';

/**
 * The conversation state machine (README "Chat agent"), in one place: a conversation is `active` (the agent may
 * answer), `handed_off` to a person, or `closed`; none is final. ConversationsRepository's status moves are
 * written against `CONVERSATION_MOVES` (their `WHERE status IN (...)` comes from here);
 * conversation-transitions.spec.ts checks every move against the table.
 */
export const CONVERSATION_TRANSITIONS: Readonly<Record<ConversationStatus, readonly ConversationStatus[]>> = {
  active: ['handed_off', 'closed'],
  handed_off: ['closed', 'active'],
  closed: ['active'],
};

export interface ConversationMoveRule {
  readonly from: readonly ConversationStatus[];
  readonly to: ConversationStatus;
}

/** Every status move, by name: the three the API (and the agent) make, and the user's message reopening a thread. */
export const CONVERSATION_MOVES = {
  /** To a person: by hand, on a hand-off keyword, at the reply limit, or when the platform keeps failing. */
  'hand-off': { from: ['active'], to: 'handed_off' },
  close: { from: ['active', 'handed_off'], to: 'closed' },
  /** By hand; the bot's reply count starts afresh. */
  reopen: { from: ['handed_off', 'closed'], to: 'active' },
  /** A user writing again re-opens a closed thread; a hand-off to a person stays as it is. */
  userWrites: { from: ['closed'], to: 'active' },
} as const satisfies Record<string, ConversationMoveRule>;

/** The moves asked for through the API. */
export type ConversationMove = Exclude<keyof typeof CONVERSATION_MOVES, 'userWrites'>;

/** `status IN (...)` for SQL over conversations. */
export const conversationStatusIn = (statuses: readonly ConversationStatus[], column = 'status'): string =>
  statusIn(CONVERSATION_STATUSES, statuses, column);
