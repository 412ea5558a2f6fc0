import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { useLivemode, useOrgId, useWorldPath } from '../pages/org-layout';
import { PagedView, QueryView, StatusBadge, Table, TestBadge, formatDate, usePaged } from '../ui';
import { CampaignActions, CampaignProgress } from './campaign-controls';
import { CampaignVariants } from './campaign-variants';

type Entry = Schemas['CampaignEntryResponse'];

/** A campaign still moving is read again every 2 s; a finished one no longer changes. */
const FINISHED = new Set(['completed', 'cancelled']);

/**
 * One campaign: its state and moves, live progress, outcomes by endedReason, and its entries page by page with
 * each attempt linking to the call it placed.
 */
export function CampaignPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const livemode = useLivemode();
  const id = useParams().campaignId!;
  const key = ['campaign', orgId, livemode, id];
  const campaign = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/campaigns/{id}', {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
    refetchInterval: (q) => (q.state.data && FINISHED.has(q.state.data.data.status) ? false : 2000),
  });
  const finished = campaign.data ? FINISHED.has(campaign.data.data.status) : false;
  const entries = usePaged<Entry>(
    ['campaign-entries', orgId, livemode, id],
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/campaigns/{id}/entries', {
          params: { path: { orgId, id }, query: { limit: 25, cursor, livemode } },
        }),
      ),
    finished ? undefined : 3000,
  );
  // The entries stop polling once the campaign is finished: read them a last time, after its last call ended.
  const { refetch } = entries.query;
  useEffect(() => {
    if (finished) void refetch();
  }, [finished, refetch]);
  return (
    <QueryView query={campaign}>
      {({ data: c }) => (
        <>
          <p>
            <Link to={worldPath(`/orgs/${orgId}/campaigns`)}>All campaigns</Link>
          </p>
          <h1>
            {c.name} <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />
          </h1>
          <p className="muted">
            from {c.from} · created {formatDate(c.createdAt)}
            {c.pausedReason && ` · paused: ${c.pausedReason}`}
            {c.window &&
              ` · calls ${c.window.days.join(', ')} ${c.window.start}-${c.window.end} (${c.window.timezone})`}
            {c.retry && ` · up to ${c.retry.maxAttempts} attempts, ${c.retry.delaySeconds} s apart`}
            {c.maxConcurrent !== null && ` · at most ${c.maxConcurrent} at once`}
            {c.callsPerMinute !== null && ` · at most ${c.callsPerMinute} a minute`}
          </p>
          <CampaignActions orgId={orgId} campaign={c} refresh={key} />
          <CampaignProgress campaign={c} />
          <h2>Outcomes</h2>
          <Outcomes outcomes={c.outcomes} />
          {c.variants && (
            <>
              <h2>Variants</h2>
              <CampaignVariants orgId={orgId} livemode={livemode} id={id} refetchInterval={finished ? false : 3000} />
            </>
          )}
          <h2>Entries</h2>
          <PagedView paged={entries} empty="No entries.">
            {(items) => (
              <Table
                headers={['To', 'Status', 'Attempts', 'Next attempt or skip reason']}
                testId="campaign-entries"
                label="Entries"
              >
                {items.map((e) => (
                  <tr key={e.id}>
                    <td>{e.to}</td>
                    <td>
                      <StatusBadge status={e.status} />
                    </td>
                    <td>
                      {e.attempts.length === 0
                        ? '—'
                        : e.attempts.map((a, i) => (
                            <span key={a.callId} className="attempt">
                              <Link to={worldPath(`/orgs/${orgId}/calls/${a.callId}`)}>
                                Call {i + 1}: {a.endedReason ?? 'in progress'}
                              </Link>{' '}
                            </span>
                          ))}
                    </td>
                    <td>{e.skipReason ?? (e.status === 'pending' ? formatDate(e.nextAttemptAt) : '—')}</td>
                  </tr>
                ))}
              </Table>
            )}
          </PagedView>
        </>
      )}
    </QueryView>
  );
}

/** Done entries by their final endedReason, most frequent first. */
function Outcomes({ outcomes }: { outcomes: Record<string, number> }) {
  const rows = Object.entries(outcomes).sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return <p className="empty">No entry has finished yet.</p>;
  return (
    <Table headers={['Ended reason', 'Entries']} testId="campaign-outcomes" label="Outcomes">
      {rows.map(([reason, n]) => (
        <tr key={reason}>
          <td>{reason}</td>
          <td>{n}</td>
        </tr>
      ))}
    </Table>
  );
}
