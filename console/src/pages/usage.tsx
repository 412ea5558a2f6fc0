import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api';
import { pathsAdminV1OrganizationsOrgIdUsageHistoryGetParametersQueryTypeValues } from '../generated/admin';
import {
  DateRangeFields,
  Field,
  PagedView,
  QueryView,
  formatDate,
  rangeQuery,
  usePaged,
  Table,
  formatDay,
} from '../ui';
import { orgPath, useLivemode, useOrgId, worldParams } from './org-layout';
import { MinutesChart } from './overview';
import { MinutesStats } from './minutes-stats';

type LedgerType = NonNullable<Schemas['UsageHistoryRowResponse']['type']>;
const TYPES = pathsAdminV1OrganizationsOrgIdUsageHistoryGetParametersQueryTypeValues;

export function UsagePage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const [type, setType] = useState<LedgerType | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const summary = useQuery({
    queryKey: ['usage', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/usage', { params: orgPath(orgId) })),
    refetchInterval: 5000,
  });
  const overview = useQuery({
    queryKey: ['overview', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/overview', { params: worldParams(orgId, livemode) })),
    refetchInterval: 5000,
  });
  const query = {
    limit: 25,
    ...(type ? { type } : {}),
    ...rangeQuery(from, to),
  };
  const history = usePaged<Schemas['UsageHistoryRowResponse']>(
    ['usage-history', orgId, livemode, query],
    (cursor) =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/usage/history', {
          params: { path: { orgId }, query: { ...query, cursor, livemode } },
        }),
      ),
    5000,
  );
  return (
    <>
      <h1>Usage</h1>
      <section className="panel" aria-labelledby="sum-h">
        <h2 id="sum-h">Summary</h2>
        <QueryView query={summary}>
          {({ data }) => (
            <dl className="stats">
              <div>
                <dt>Balance</dt>
                <dd data-testid="usage-balance">{data.balanceMins} min</dd>
              </div>
              <div>
                <dt>Period</dt>
                <dd>
                  {formatDay(data.period.start)} – {formatDay(data.period.end)}
                </dd>
              </div>
              <MinutesStats usage={data.currentPeriodUsage} />
              <div>
                <dt>Outbound blocked</dt>
                <dd>{data.outboundBlockedReason ?? 'no'}</dd>
              </div>
            </dl>
          )}
        </QueryView>
        <QueryView query={overview}>{({ data }) => <MinutesChart days={data.minutesByDay} />}</QueryView>
      </section>
      <section className="panel" aria-labelledby="hist-h">
        <h2 id="hist-h">History</h2>
        <form className="filters" aria-label="History filters" onSubmit={(e) => e.preventDefault()}>
          <Field label="Type">
            {(id) => (
              <select id={id} value={type} onChange={(e) => setType(e.target.value as LedgerType | '')}>
                <option value="">Any</option>
                {TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            )}
          </Field>
          <DateRangeFields from={from} to={to} onFrom={setFrom} onTo={setTo} />
        </form>
        <PagedView paged={history} empty="No ledger rows match.">
          {(rows) => (
            <Table headers={['When', 'Type', 'Minutes', 'Balance after', 'Description']} testId="usage-history">
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{formatDate(r.createdAt)}</td>
                  <td>{r.type}</td>
                  <td>{r.amountMins}</td>
                  <td>{r.balanceAfterMins}</td>
                  <td>{r.description ?? ''}</td>
                </tr>
              ))}
            </Table>
          )}
        </PagedView>
      </section>
    </>
  );
}
