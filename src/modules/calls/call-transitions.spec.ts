import { CALL_STATUSES, CallStatus } from './call.entity';
import {
  CALL_MOVES,
  CALL_TRANSITIONS,
  INITIAL_CALL_STATUSES,
  LIVE_CALL_STATUS,
  isTerminal,
  statusIn,
} from './call-transitions';
import { CallsRepository } from './calls.repository';

const moves = Object.entries(CALL_MOVES) as Array<
  [keyof typeof CALL_MOVES, (typeof CALL_MOVES)[keyof typeof CALL_MOVES]]
>;

describe('the call transition table', () => {
  it('has a row for every status and names only known statuses', () => {
    expect(Object.keys(CALL_TRANSITIONS).sort()).toEqual([...CALL_STATUSES].sort());
    for (const targets of Object.values(CALL_TRANSITIONS)) {
      for (const to of targets) expect(CALL_STATUSES).toContain(to);
    }
  });

  it.each(moves)('every from -> to of the move %s is an allowed transition', (_name, move) => {
    for (const from of move.from as readonly CallStatus[]) {
      for (const to of move.to as readonly CallStatus[]) {
        expect({ from, to, allowed: CALL_TRANSITIONS[from].includes(to) }).toEqual({ from, to, allowed: true });
      }
    }
  });

  it('every allowed transition is made by some move (no edge without a statement)', () => {
    for (const [from, targets] of Object.entries(CALL_TRANSITIONS) as Array<[CallStatus, CallStatus[]]>) {
      for (const to of targets) {
        const makers = moves.filter(
          ([, m]) => (m.from as readonly string[]).includes(from) && (m.to as readonly string[]).includes(to),
        );
        expect({ from, to, made: makers.length > 0 }).toEqual({ from, to, made: true });
      }
    }
  });

  it('terminal states have no exits, and ended, cancelled and error are the terminal ones', () => {
    expect(CALL_STATUSES.filter(isTerminal).sort()).toEqual(['cancelled', 'ended', 'error']);
    for (const [, move] of moves) {
      for (const from of move.from as readonly CallStatus[]) expect(isTerminal(from)).toBe(false);
    }
  });

  it('every status is reachable from a status a call can be created in', () => {
    const reached = new Set<CallStatus>(INITIAL_CALL_STATUSES);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of [...reached]) {
        for (const to of CALL_TRANSITIONS[s]) if (!reached.has(to) && reached.add(to)) grew = true;
      }
    }
    expect([...reached].sort()).toEqual([...CALL_STATUSES].sort());
  });

  it('updates of a live call (platform events) happen in a non-terminal status', () => {
    expect(isTerminal(LIVE_CALL_STATUS)).toBe(false);
  });

  it('every move is a method of CallsRepository', () => {
    for (const [name] of moves) expect(typeof CallsRepository.prototype[name]).toBe('function');
  });

  it('statusIn writes the literals SQL needs and refuses an unknown status', () => {
    expect(statusIn(CALL_MOVES.claim.from)).toBe(`status IN ('new', 'scheduled')`);
    expect(statusIn(['processing'], 'c.status')).toBe(`c.status IN ('processing')`);
    expect(() => statusIn(['queued' as CallStatus])).toThrow('Unknown status queued');
  });
});
