import { useState } from 'react';
import type { Schemas } from '../api';
import { ExpandButton, StatusBadge, formatDate } from '../ui';

/** What a call's tools did (docs/tools.md): each tool call and a transfer. */
type ToolCallReport = Schemas['ToolCallResponse'];
type CallWithTools = Schemas['CallDetailResponse'];

/** The call page's tool section: nothing at all for a call whose tools did nothing. */
export function CallToolActivity({ call }: { call: CallWithTools }) {
  const toolCalls = call.toolCalls;
  if (toolCalls.length === 0 && !call.transfer) return null;
  return (
    <section className="panel tool-calls" aria-labelledby="tool-calls-h">
      <h2 id="tool-calls-h">Tools used</h2>
      {call.transfer && (
        <p data-testid="call-transfer">
          Transferred to {call.transfer.to} ({call.transfer.mode}) <StatusBadge status={call.transfer.status} />{' '}
          <span className="muted">{formatDate(call.transfer.at)}</span>
        </p>
      )}
      {toolCalls.length > 0 && (
        <ul className="rows" data-testid="tool-calls">
          {toolCalls.map((toolCall) => (
            <ToolCallRow key={toolCall.id} toolCall={toolCall} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ToolCallRow({ toolCall }: { toolCall: ToolCallReport }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <ExpandButton open={open} onToggle={() => setOpen(!open)}>
        {toolCall.name}
      </ExpandButton>{' '}
      <StatusBadge status={toolCall.status} />{' '}
      <span className="muted">
        {toolCall.durationMs != null ? `${toolCall.durationMs} ms` : '—'} · {formatDate(toolCall.at)}
      </span>
      {toolCall.error && (
        <p className="error" data-testid="tool-call-error">
          {toolCall.error.code}
          {toolCall.error.httpStatus != null ? ` (HTTP ${toolCall.error.httpStatus})` : ''}: {toolCall.error.message}
        </p>
      )}
      {open && (
        <dl className="details">
          <dt>Arguments</dt>
          <dd>
            <pre>{JSON.stringify(toolCall.arguments, null, 2)}</pre>
          </dd>
          <dt>Result</dt>
          <dd>
            <pre>{JSON.stringify(toolCall.result, null, 2) ?? '—'}</pre>
          </dd>
        </dl>
      )}
    </li>
  );
}
