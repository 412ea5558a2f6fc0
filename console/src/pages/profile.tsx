import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { QueryView, formatDate } from '../ui';
import { orgPath, useOrgId } from './org-layout';

export function ProfilePage() {
  const orgId = useOrgId();
  const org = useQuery({
    queryKey: ['org', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Profile</h1>
      <QueryView query={org}>
        {({ data }) => (
          <dl className="details">
            <dt>Name</dt>
            <dd>{data.name}</dd>
            <dt>Id</dt>
            <dd>
              <code>{data.id}</code>
            </dd>
            <dt>Description</dt>
            <dd>{data.description ?? '—'}</dd>
            <dt>Contact email</dt>
            <dd>{data.contactEmail ?? '—'}</dd>
            <dt>Contact phone</dt>
            <dd>{data.contactPhone ?? '—'}</dd>
            <dt>Public profile</dt>
            <dd>{data.profile ? 'served at GET /api/v1/organization' : 'hidden (404)'}</dd>
            <dt>Created</dt>
            <dd>{formatDate(data.createdAt)}</dd>
          </dl>
        )}
      </QueryView>
    </>
  );
}
