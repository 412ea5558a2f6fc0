import type { Schemas } from '../api';
import { StatusBadge, Table } from '../ui';

export type ScenarioRun = Schemas['ScenarioRunResponse'];
type ToolCall = Schemas['SeenToolCallResponse'];

/** A run not ended yet: the console keeps asking for it. */
export const inFlight = (run: ScenarioRun | undefined) => run?.status === 'queued' || run?.status === 'running';

const LABELS: Record<ScenarioRun['expectations'][number]['type'], string> = {
  replyIncludes: 'A reply includes',
  replyExcludes: 'No reply includes',
  toolCall: 'Tool call',
  handOff: 'Handed off',
};

const callText = (call: { name?: unknown; arguments?: unknown; argumentsInclude?: unknown }) => {
  const args = call.arguments ?? call.argumentsInclude;
  return `${String(call.name)}${args ? ` ${JSON.stringify(args)}` : ''}`;
};

/** An expected or seen value in words: strings quoted, tool calls as `name {arguments}`, a hand-off as yes/no. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return value.length ? value.map((v) => shown(v)).join('; ') : 'no such call';
  if (typeof value === 'object' && 'name' in value) return callText(value);
  return JSON.stringify(value);
}

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

/**
 * One run of a scenario: its status, each expectation passed or failed with what the run saw, the conversation
 * as it went (the assistant's tool calls under its replies), how long it took and what it cost.
 */
export function ScenarioRunResult({ run }: { run: ScenarioRun }) {
  return (
    <div className="scenario-run" data-testid="scenario-run" aria-busy={inFlight(run)}>
      <p>
        <StatusBadge status={run.status} /> Case version {run.caseVersion}
        {' · '}Duration {seconds(run.durationMs)}
        {' · '}
        {run.usage
          ? `Cost $${run.usage.costUsd.toFixed(4)} (${run.usage.tokens} tokens)`
          : inFlight(run)
            ? 'Cost —'
            : 'Cost $0 (simulator)'}
      </p>
      {run.error && <p className="error">{run.error}</p>}
      {run.expectations.length > 0 && (
        <Table
          headers={['Expectation', 'Expected', 'Result', 'Seen']}
          testId="scenario-expectations"
          label="Expectations"
        >
          {run.expectations.map((e, i) => (
            <tr key={i}>
              <td>{LABELS[e.type]}</td>
              <td>{shown(e.expected)}</td>
              <td>
                <StatusBadge status={e.passed ? 'passed' : 'failed'} />
              </td>
              <td className="seen">{shown(e.seen)}</td>
            </tr>
          ))}
        </Table>
      )}
      {run.transcript.length > 0 && (
        <ol className="transcript" data-testid="scenario-transcript" aria-label="Transcript">
          {run.transcript.map((line, i) => (
            <li key={i} className={`turn-${line.role}`}>
              <strong>{line.role === 'user' ? 'User' : 'Assistant'}:</strong> {line.text}
              {line.toolCalls?.map((call: ToolCall, j) => (
                <div key={j} className="muted">
                  Called {callText(call)}
                </div>
              ))}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
