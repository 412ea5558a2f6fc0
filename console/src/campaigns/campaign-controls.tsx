import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api';
import { useLivemode } from '../pages/org-layout';
import { ConfirmButton, ErrorNote } from '../ui';

export type Campaign = Schemas['ConsoleCampaignResponse'];
type Action = Campaign['actions'][number];

const LABELS: Record<Exclude<Action, 'cancel'>, string> = { start: 'Start', pause: 'Pause', resume: 'Resume' };

/**
 * The moves the API says the campaign allows now (`actions`), so the state machine lives in one place. Cancelling
 * asks once more, with answers that cannot be misread: "Cancel campaign" or "Keep running".
 */
export function CampaignActions({
  orgId,
  campaign,
  refresh,
}: {
  orgId: string;
  campaign: Campaign;
  refresh: QueryKey;
}) {
  const client = useQueryClient();
  const livemode = useLivemode();
  const move = useMutation({
    mutationFn: (action: Action) =>
      unwrap(
        api.POST(`/admin/v1/organizations/{orgId}/campaigns/{id}/${action}`, {
          params: { path: { orgId, id: campaign.id }, query: { livemode } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: refresh }),
  });
  return (
    <>
      {campaign.actions.map((action) =>
        action === 'cancel' ? (
          <ConfirmButton
            key={action}
            label="Cancel campaign"
            confirmLabel="Pending entries will never be called."
            yesLabel="Cancel campaign"
            noLabel="Keep running"
            busy={move.isPending}
            onConfirm={() => move.mutate(action)}
          />
        ) : (
          <button
            key={action}
            type="button"
            className="secondary"
            disabled={move.isPending}
            onClick={() => move.mutate(action)}
          >
            {LABELS[action]}
          </button>
        ),
      )}
      {move.isError && <ErrorNote error={move.error} />}
    </>
  );
}

export function CampaignProgress({ campaign: c }: { campaign: Campaign }) {
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
