import { CallStatus } from './call.entity';
import { CALL_MOVES, CALL_TRANSITIONS, INITIAL_CALL_STATUSES } from './call-transitions';

/** Mermaid ids cannot hold `-`; each state keeps its real name as its label. */
const id = (status: CallStatus) => status.replace(/-/g, '_');

/**
 * The call state diagram as Mermaid, generated from the transition table: every edge labelled with the
 * CallsRepository moves that make it. docs/architecture.md embeds it (call-state-diagram.spec.ts keeps it current).
 */
export function callStateDiagram(): string {
  const statuses = Object.keys(CALL_TRANSITIONS) as CallStatus[];
  const lines = ['stateDiagram-v2'];
  for (const s of statuses) if (id(s) !== s) lines.push(`  state "${s}" as ${id(s)}`);
  for (const s of INITIAL_CALL_STATUSES) lines.push(`  [*] --> ${id(s)}: insert`);
  for (const from of statuses) {
    for (const to of CALL_TRANSITIONS[from]) {
      const moves = Object.entries(CALL_MOVES)
        .filter(([, m]) => (m.from as readonly string[]).includes(from) && (m.to as readonly string[]).includes(to))
        .map(([name]) => name);
      lines.push(`  ${id(from)} --> ${id(to)}: ${moves.join(', ')}`);
    }
    if (CALL_TRANSITIONS[from].length === 0) lines.push(`  ${id(from)} --> [*]`);
  }
  return lines.join('\n');
}
