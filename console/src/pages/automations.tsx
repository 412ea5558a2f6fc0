import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { ErrorNote, QueryView, StatusBadge, formatDate } from '../ui';
import { CampaignsSection } from './campaigns-section';
import { orgPath, useOrgId } from './org-layout';

export function AutomationsPage() {
  const orgId = useOrgId();
  const client = useQueryClient();
  const automations = useQuery({
    queryKey: ['automations', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/automations', { params: orgPath(orgId) })),
  });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'paused' }) =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/recurring-schedules/{id}/status', {
          params: { path: { orgId, id } },
          body: { status },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['automations', orgId] }),
  });
  return (
    <>
      <h1>Automations</h1>
      {setStatus.isError && <ErrorNote error={setStatus.error} />}
      <QueryView
        query={automations}
        empty="No recurring schedules or follow-up campaigns."
        isEmpty={(d) => d.data.length === 0}
      >
        {({ data }) => (
          <ul className="rows">
            {data.map((a) => (
              <li key={a.id} data-testid={`automation-${a.id}`}>
                <strong>{a.kind === 'recurring-schedule' ? 'Recurring schedule' : 'Follow-up campaign'}</strong>{' '}
                {a.status && <StatusBadge status={a.status} />}{' '}
                <span className="muted">created {formatDate(a.createdAt)}</span>
                {a.status && (
                  <button
                    type="button"
                    className="secondary"
                    disabled={setStatus.isPending}
                    onClick={() => setStatus.mutate({ id: a.id, status: a.status === 'active' ? 'paused' : 'active' })}
                  >
                    {a.status === 'active' ? 'Pause' : 'Resume'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <CampaignsSection orgId={orgId} />
    </>
  );
}
