import { CONVERSATION_STATUSES, ConversationStatus } from './conversation.entity';
import { CONVERSATION_MOVES, CONVERSATION_TRANSITIONS, conversationStatusIn } from './conversation-transitions';

const moves = Object.entries(CONVERSATION_MOVES) as Array<
  [string, { from: readonly ConversationStatus[]; to: ConversationStatus }]
>;

describe('the conversation transition table', () => {
  it('has a row for every status and names only known statuses', () => {
    expect(Object.keys(CONVERSATION_TRANSITIONS).sort()).toEqual([...CONVERSATION_STATUSES].sort());
    for (const targets of Object.values(CONVERSATION_TRANSITIONS))
      for (const to of targets) expect(CONVERSATION_STATUSES).toContain(to);
  });

  it.each(moves)('every from -> to of the move %s is an allowed transition', (_name, move) => {
    for (const from of move.from)
      expect({ from, to: move.to, allowed: CONVERSATION_TRANSITIONS[from].includes(move.to) }).toEqual({
        from,
        to: move.to,
        allowed: true,
      });
  });

  it('every allowed transition is made by some move (no edge without a statement)', () => {
    for (const [from, targets] of Object.entries(CONVERSATION_TRANSITIONS) as Array<
      [ConversationStatus, ConversationStatus[]]
    >)
      for (const to of targets) {
        const made = moves.some(([, m]) => m.from.includes(from) && m.to === to);
        expect({ from, to, made }).toEqual({ from, to, made: true });
      }
  });

  it('the SQL predicate names the statuses and refuses an unknown one', () => {
    expect(conversationStatusIn(CONVERSATION_MOVES.close.from, 'c.status')).toBe(
      `c.status IN ('active', 'handed_off')`,
    );
    expect(() => conversationStatusIn(['open' as ConversationStatus])).toThrow('Unknown status open');
  });
});
