import { ENTRY_STATUSES, EntryStatus } from './campaign-entry.entity';
import { ENTRY_MOVES, ENTRY_TRANSITIONS, OPEN_ENTRY_STATUSES, entryStatusIn } from './campaign-entry-transitions';

const moves = Object.entries(ENTRY_MOVES) as Array<
  [string, { from: readonly EntryStatus[]; to: readonly EntryStatus[] }]
>;

describe('the campaign entry transition table', () => {
  it('has a row for every status and names only known statuses', () => {
    expect(Object.keys(ENTRY_TRANSITIONS).sort()).toEqual([...ENTRY_STATUSES].sort());
    for (const targets of Object.values(ENTRY_TRANSITIONS))
      for (const to of targets) expect(ENTRY_STATUSES).toContain(to);
  });

  it.each(moves)('every from -> to of the move %s is an allowed transition', (_name, move) => {
    for (const from of move.from)
      for (const to of move.to)
        expect({ from, to, allowed: ENTRY_TRANSITIONS[from].includes(to) }).toEqual({ from, to, allowed: true });
  });

  it('every allowed transition is made by some move (no edge without a statement)', () => {
    for (const [from, targets] of Object.entries(ENTRY_TRANSITIONS) as Array<[EntryStatus, EntryStatus[]]>)
      for (const to of targets) {
        const made = moves.some(([, m]) => m.from.includes(from) && m.to.includes(to));
        expect({ from, to, made }).toEqual({ from, to, made: true });
      }
  });

  it('open entries are the non-final ones; the SQL predicate refuses an unknown status', () => {
    expect(OPEN_ENTRY_STATUSES).toEqual(['pending', 'in_progress']);
    expect(entryStatusIn(['pending'], 'e.status')).toBe(`e.status IN ('pending')`);
    expect(() => entryStatusIn(['dialling' as EntryStatus])).toThrow('Unknown status dialling');
  });
});
