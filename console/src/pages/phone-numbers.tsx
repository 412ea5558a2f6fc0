import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { QueryView, formatDate } from '../ui';
import { orgPath, useOrgId } from './org-layout';

export function PhoneNumbersPage() {
  const orgId = useOrgId();
  const numbers = useQuery({
    queryKey: ['numbers', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/phone-numbers', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Phone numbers</h1>
      <QueryView query={numbers} empty="No phone numbers yet." isEmpty={(d) => d.data.length === 0}>
        {({ data }) => (
          <ul className="rows">
            {data.map((n) => (
              <li key={n.id}>
                <strong>{n.number}</strong> {n.label} <span className="muted">added {formatDate(n.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}
