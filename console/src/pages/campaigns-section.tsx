import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api';
import { ConfirmButton, ErrorNote, PagedView, StatusBadge, TestBadge, formatDate, usePaged } from '../ui';
import { useLivemode } from './org-layout';

type Campaign = Schemas['ConsoleCampaignResponse'];
type Action = Campaign['actions'][number];

const LABELS: Record<Exclude<Action, 'cancel'>, string> = { start: 'Start', pause: 'Pause', resume: 'Resume' };

/**
 * Dialer campaigns (CONTRACTS §9) with their progress, refreshed every 3 s while the page is open. The buttons
 * are the moves the API says the campaign allows now (`actions`), so the state machine lives in one place.
 */
export function CampaignsSection({ orgId }: { orgId: string }) {
  const client = useQueryClient();
  const livemode = useLivemode();
  const key = ['campaigns', orgId, livemode];
  const paged = usePaged<Campaign>(
    key,
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/campaigns', {
          params: { path: { orgId }, query: { limit: 25, cursor, livemode } },
        }),
      ),
    3000,
  );
  const move = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action }) =>
      unwrap(
        api.POST(`/admin/v1/organizations/{orgId}/campaigns/{id}/${action}`, {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
  });
  return (
    <section aria-labelledby="campaigns-heading">
      <h2 id="campaigns-heading">Dialer campaigns</h2>
      {move.isError && <ErrorNote error={move.error} />}
      <PagedView paged={paged} empty="No campaigns. Create them with POST /api/v1/campaigns.">
        {(items) => (
          <ul className="rows">
            {items.map((c) => (
              <li key={c.id} data-testid={`campaign-${c.id}`}>
                <strong>{c.name}</strong> <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />{' '}
                {c.pausedReason && <span className="muted">({c.pausedReason})</span>}{' '}
                <span className="muted">
                  from {c.from} · created {formatDate(c.createdAt)}
                </span>
                <Progress campaign={c} />
                {c.actions.map((action) =>
                  action === 'cancel' ? (
                    <ConfirmButton
                      key={action}
                      label="Cancel campaign"
                      confirmLabel="Pending entries will never be called."
                      busy={move.isPending}
                      onConfirm={() => move.mutate({ id: c.id, action })}
                    />
                  ) : (
                    <button
                      key={action}
                      type="button"
                      className="secondary"
                      disabled={move.isPending}
                      onClick={() => move.mutate({ id: c.id, action })}
                    >
                      {LABELS[action]}
                    </button>
                  ),
                )}
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </section>
  );
}

function Progress({ campaign: c }: { campaign: Campaign }) {
  const { total, pending, inProgress, done, skipped } = c.counts;
  return (
    <div className="progress">
      <progress value={done + skipped} max={Math.max(total, 1)} aria-label={`Progress of ${c.name}`} />
      <span data-testid="campaign-counts">
        {done} of {total} done · {inProgress} in progress · {pending} pending · {skipped} skipped
      </span>
    </div>
  );
}
