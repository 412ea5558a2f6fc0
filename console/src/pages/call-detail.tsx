import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { ConfirmButton, ErrorNote, QueryView, StatusBadge, TestBadge, formatDate } from '../ui';
import { CallLabel } from '../answers/call-label';
import { CallToolActivity } from '../tools/call-tool-activity';
import { TERMINAL } from './calls';
import { useLivemode, useOrgId, useWorldPath } from './org-layout';

type Call = Schemas['CallDetailResponse'];

export function CallDetailPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const callId = useParams().callId!;
  const livemode = useLivemode();
  // Statuses seen while watching, in order: the API keeps the current status only, so the live timeline is
  // what this page observed plus the call's own creation and last-update times.
  const seen = useRef<Array<{ status: string; at: string }>>([]);
  const call = useQuery({
    queryKey: ['call', orgId, livemode, callId],
    queryFn: async () => {
      const result = await unwrap(
        api.GET('/admin/v1/organizations/{orgId}/calls/{id}', {
          params: { path: { orgId, id: callId }, query: { livemode } },
        }),
      );
      const status = result.data.apiCallStatus ?? result.data.status;
      if (seen.current.at(-1)?.status !== status) seen.current.push({ status, at: new Date().toISOString() });
      return result.data;
    },
    refetchInterval: (q) => (q.state.data && TERMINAL.has(q.state.data.status) ? false : 1000),
  });
  const client = useQueryClient();
  // Hangs up a live call through its voice platform; the page then follows the end like any other.
  const end = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/admin/v1/organizations/{orgId}/calls/{id}/end', { params: { path: { orgId, id: callId } } })),
    onSettled: () => void client.invalidateQueries({ queryKey: ['call', orgId, callId] }),
  });
  return (
    <>
      <p>
        <Link to={worldPath(`/orgs/${orgId}/calls`)}>← Calls</Link>
      </p>
      <QueryView query={call}>
        {(c) => (
          <>
            <h1>
              Call to {c.callTo} <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />
            </h1>
            {c.status === 'processing' && c.apiCallId && (
              <p>
                <ConfirmButton
                  label="End call"
                  confirmLabel="Hang up this live call now?"
                  busy={end.isPending}
                  onConfirm={() => end.mutate()}
                />
              </p>
            )}
            {end.error && <ErrorNote error={end.error} />}
            <div className="two-col">
              <section className="panel" aria-labelledby="facts-h">
                <h2 id="facts-h">Details</h2>
                <CallFacts call={c} />
                <h3>Status timeline</h3>
                <ol className="timeline" data-testid="timeline">
                  <li>
                    created <span className="muted">{formatDate(c.createdAt)}</span>
                  </li>
                  {seen.current.map((s) => (
                    <li key={s.status + s.at}>
                      {s.status} <span className="muted">seen {formatDate(s.at)}</span>
                    </li>
                  ))}
                </ol>
              </section>
              <section className="panel" aria-labelledby="transcript-h">
                <h2 id="transcript-h">Transcript</h2>
                <Transcript call={c} />
              </section>
            </div>
            <CallToolActivity call={c} />
          </>
        )}
      </QueryView>
    </>
  );
}

function CallFacts({ call: c }: { call: Call }) {
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd data-testid="call-status">{c.status}</dd>
      <dt>From → to</dt>
      <dd>
        {c.callFrom} → {c.callTo} ({c.direction})
      </dd>
      <dt>Result</dt>
      <dd>{[c.resultStatus, c.endedReason].filter(Boolean).join(' · ') || '—'}</dd>
      <dt>Answered by</dt>
      <dd data-testid="answered-by">{c.answeredBy ?? '—'}</dd>
      {c.analysis && (
        <>
          <dt>Analysis</dt>
          <dd data-testid="analysis">
            {c.analysis.summary && <p>{c.analysis.summary}</p>}
            {c.analysis.success != null && <p>Success: {c.analysis.success ? 'yes' : 'no'}</p>}
            {c.analysis.structuredData && <pre>{JSON.stringify(c.analysis.structuredData, null, 2)}</pre>}
          </dd>
        </>
      )}
      <dt>Platform</dt>
      <dd data-testid="call-platform">
        {c.platform}
        {c.platformAttempts.length
          ? ` (after ${c.platformAttempts.map((a) => `${a.platform}: ${a.error}`).join('; ')})`
          : ''}
      </dd>
      <dt>Duration</dt>
      <dd>{c.durationSeconds != null ? `${c.durationSeconds} s` : '—'}</dd>
      <dt>Cost</dt>
      <dd data-testid="call-cost">
        {c.providerCost != null
          ? `$${c.providerCost.toFixed(2)} (what the voice platform charged)`
          : 'Not reported (the simulator, or a call still live)'}
      </dd>
      <dt>First message</dt>
      <dd>{c.firstMessage ?? '—'}</dd>
      <dt>Variables</dt>
      <dd>
        {Object.keys(c.variableValues ?? {}).length === 0 ? (
          '—'
        ) : (
          <ul>
            {Object.entries(c.variableValues ?? {}).map(([k, v]) => (
              <li key={k}>
                <code>{k}</code> = {String(v)}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Recording</dt>
      <dd>
        {c.recordingUrl ? (
          <>
            <audio controls preload="none" src={c.recordingUrl} aria-label="Call recording" />{' '}
            <a href={c.recordingUrl} rel="noreferrer noopener" target="_blank">
              Open recording
            </a>
          </>
        ) : (
          '—'
        )}
      </dd>
      <dt>Who answered (reviewer)</dt>
      <dd>
        <CallLabel call={c} />
      </dd>
      <dt>Updated</dt>
      <dd>{formatDate(c.updatedAt)}</dd>
    </dl>
  );
}

/** endedReasons of a call nobody talked in: the transcript pane says so instead of waiting for one. */
const UNANSWERED: Record<string, string> = {
  'customer-did-not-answer': 'Nobody answered.',
  'customer-busy': 'The line was busy.',
  'voicemail-reached': 'The call reached voicemail.',
};

function Transcript({ call }: { call: Call }) {
  const turns = call.transcript.filter((m) => m.role !== 'system');
  if (turns.length === 0) {
    const unanswered = call.endedReason ? UNANSWERED[call.endedReason] : undefined;
    if (unanswered) return <p className="empty">{unanswered} There is no conversation to show.</p>;
    if (TERMINAL.has(call.status)) return <p className="empty">The call ended without a conversation.</p>;
    return <p className="empty">No transcript yet.</p>;
  }
  const other = call.direction === 'inbound' ? 'Caller' : 'Customer';
  return (
    <ol className="conversation" data-testid="transcript">
      {turns.map((m, i) => (
        <li key={i} className={`bubble bubble-${m.role}`}>
          <span className="who">{m.role === 'assistant' ? 'Assistant' : other}</span>
          <p>{m.content}</p>
        </li>
      ))}
    </ol>
  );
}
