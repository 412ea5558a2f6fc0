import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { pathsAdminV1OrganizationsOrgIdCallsGetParametersQueryStatusValues } from '../generated/admin';
import {
  DateRangeFields,
  Field,
  PagedView,
  StatusBadge,
  TestBadge,
  formatDate,
  rangeQuery,
  usePaged,
  Table,
} from '../ui';
import { orgPath, useLivemode, useOrgId } from './org-layout';

export const TERMINAL = new Set(['ended', 'cancelled', 'error']);
const STATUSES = pathsAdminV1OrganizationsOrgIdCallsGetParametersQueryStatusValues;
type Status = (typeof STATUSES)[number];

export function CallsPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const [status, setStatus] = useState<Status | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [caseId, setCaseId] = useState('');
  // The case filter offers the newest 100 cases: enough to pick from on a console page.
  const cases = useQuery({
    queryKey: ['case-options', orgId],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/cases', { params: { ...orgPath(orgId), query: { limit: 100 } } }),
      ),
  });
  const query = {
    limit: 25,
    ...(status ? { status } : {}),
    ...(caseId ? { caseId } : {}),
    ...rangeQuery(from, to),
  };
  const paged = usePaged<Schemas['CallResponse']>(
    ['calls', orgId, livemode, query],
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/calls', {
          params: { path: { orgId }, query: { ...query, cursor, livemode } },
        }),
      ),
    // Live status: the list refreshes every 2 s, the way a status board does.
    2000,
  );
  return (
    <>
      <h1>Calls</h1>
      <form className="filters" aria-label="Call filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus(e.target.value as Status | '')}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Case">
          {(id) => (
            <select id={id} value={caseId} onChange={(e) => setCaseId(e.target.value)}>
              <option value="">Any</option>
              {cases.data?.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <DateRangeFields from={from} to={to} onFrom={setFrom} onTo={setTo} labels={['Created from', 'Created to']} />
      </form>
      <PagedView paged={paged} empty="No calls match. Place a test call from the overview.">
        {(calls) => (
          <Table headers={['Created', 'Status', 'Direction', 'To', 'Result', 'Duration']}>
            {calls.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to={`/orgs/${orgId}/calls/${c.id}`}>{formatDate(c.createdAt)}</Link>
                </td>
                <td>
                  <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />
                </td>
                <td>{c.direction}</td>
                <td>{c.callTo}</td>
                <td>{c.resultStatus ?? c.endedReason ?? '—'}</td>
                <td>{c.durationSeconds != null ? `${c.durationSeconds} s` : '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </PagedView>
    </>
  );
}
