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
import { CaseSelect } from './choices';
import { useLivemode, useOrgId, useWorldPath } from './org-layout';

export const TERMINAL = new Set(['ended', 'cancelled', 'error']);
const STATUSES = pathsAdminV1OrganizationsOrgIdCallsGetParametersQueryStatusValues;
type Status = (typeof STATUSES)[number];

export function CallsPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const livemode = useLivemode();
  const [status, setStatus] = useState<Status | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [caseId, setCaseId] = useState('');
  // The number is searched when submitted (Enter or the button), not at each keystroke: a partial number is no number.
  const [numberInput, setNumberInput] = useState('');
  const [number, setNumber] = useState('');
  const query = {
    limit: 25,
    ...(status ? { status } : {}),
    ...(caseId ? { caseId } : {}),
    ...(number ? { number } : {}),
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
      <form
        className="filters"
        role="search"
        aria-label="Search calls by number"
        onSubmit={(e) => {
          e.preventDefault();
          setNumber(numberInput.trim());
        }}
      >
        <Field label="Phone number" hint="To or from, e.g. +14155550123">
          {(id) => (
            <input
              id={id}
              type="search"
              maxLength={40}
              value={numberInput}
              onChange={(e) => setNumberInput(e.target.value)}
            />
          )}
        </Field>
        <button type="submit">Search</button>
      </form>
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
        <CaseSelect orgId={orgId} value={caseId} onChange={setCaseId} none="Any" />
        <DateRangeFields from={from} to={to} onFrom={setFrom} onTo={setTo} labels={['Created from', 'Created to']} />
      </form>
      <PagedView paged={paged} empty="No calls match. Place a test call from the overview.">
        {(calls) => (
          // The columns a person scans first come first: on a phone the rest scroll into view.
          <Table headers={['Created', 'To', 'Status', 'Result', 'Direction', 'Duration']} label="Calls">
            {calls.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to={worldPath(`/orgs/${orgId}/calls/${c.id}`)}>{formatDate(c.createdAt)}</Link>
                </td>
                <td>{c.callTo}</td>
                <td>
                  <StatusBadge status={c.status} /> <TestBadge livemode={c.livemode} />
                </td>
                <td>{c.resultStatus ?? c.endedReason ?? '—'}</td>
                <td>{c.direction}</td>
                <td>{c.durationSeconds != null ? `${c.durationSeconds} s` : '—'}</td>
              </tr>
            ))}
          </Table>
        )}
      </PagedView>
    </>
  );
}
