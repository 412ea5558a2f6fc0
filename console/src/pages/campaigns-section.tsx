import { Link } from 'react-router';
import { api, unwrap } from '../api';
import { CampaignActions, CampaignProgress, type Campaign } from '../campaigns/campaign-controls';
import { PagedView, StatusBadge, TestBadge, formatDate, usePaged } from '../ui';
import { useLivemode, useWorldPath } from './org-layout';

/** Dialer campaigns with their progress, refreshed every 3 s while the page is open. */
export function CampaignsSection({ orgId }: { orgId: string }) {
  const worldPath = useWorldPath();
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
  return (
    <section aria-labelledby="campaigns-heading">
      <h2 id="campaigns-heading">Dialer campaigns</h2>
      <Link to={worldPath(`/orgs/${orgId}/campaigns/new`)} className="button">
        New campaign
      </Link>
      <PagedView paged={paged} empty="No campaigns yet.">
        {(items) => (
          <ul className="rows">
            {items.map((c) => (
              <li key={c.id} data-testid={`campaign-${c.id}`}>
                <Link to={worldPath(`/orgs/${orgId}/campaigns/${c.id}`)}>
                  <strong>{c.name}</strong>
                </Link>{' '}
                <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />{' '}
                {c.pausedReason && <span className="muted">({c.pausedReason})</span>}{' '}
                <span className="muted">
                  from {c.from} · created {formatDate(c.createdAt)}
                </span>
                <CampaignProgress campaign={c} />
                <CampaignActions orgId={orgId} campaign={c} refresh={key} />
              </li>
            ))}
          </ul>
        )}
      </PagedView>
    </section>
  );
}
