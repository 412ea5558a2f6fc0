import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api';
import { QueryView, StatusBadge } from '../ui';
import { orgPath, useLivemode, useOrgId, worldParams } from './org-layout';
import { MinutesStats } from './minutes-stats';
import { TestCallForm } from './test-call';

export function OverviewPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const usage = useQuery({
    queryKey: ['usage', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/usage', { params: orgPath(orgId) })),
  });
  const overview = useQuery({
    queryKey: ['overview', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/overview', { params: worldParams(orgId, livemode) })),
    refetchInterval: 5000,
  });
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="plan-h" className="panel">
        <h2 id="plan-h">Plan and balance</h2>
        <QueryView query={usage}>
          {({ data }) => (
            <dl className="stats">
              <div>
                <dt>Plan</dt>
                <dd>{data.plan?.name ?? 'No plan'}</dd>
              </div>
              <div>
                <dt>Balance</dt>
                <dd data-testid="balance">{data.balanceMins} min</dd>
              </div>
              <MinutesStats usage={data.currentPeriodUsage} />
              <div>
                <dt>Calls this period</dt>
                <dd>{data.currentPeriodUsage.totalCalls}</dd>
              </div>
            </dl>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="chart-h" className="panel">
        <h2 id="chart-h">Minutes by day (last 30 days)</h2>
        <QueryView query={overview}>{({ data }) => <MinutesChart days={data.minutesByDay} />}</QueryView>
      </section>
      <section aria-labelledby="status-h" className="panel">
        <h2 id="status-h">Calls by status (last 30 days)</h2>
        <QueryView
          query={overview}
          empty="No calls yet."
          isEmpty={(d) => Object.keys(d.data.callsByStatus).length === 0}
        >
          {({ data }) => (
            <ul className="status-counts">
              {Object.entries(data.callsByStatus).map(([status, count]) => (
                <li key={status}>
                  <StatusBadge status={status} /> <strong>{count}</strong>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="test-h" className="panel">
        <h2 id="test-h">Test call</h2>
        <TestCallForm />
      </section>
    </>
  );
}

/** An SVG bar chart (attributes, not inline styles, so the strict CSP holds), with a table for screen readers. */
export function MinutesChart({ days: used }: { days: Schemas['DailyUsageResponse'][] }) {
  if (used.length === 0) return <p className="empty">No minutes used in the last 30 days.</p>;
  // Every day of the window gets a bar, so the axis reads as a calendar even on quiet days.
  const byDay = new Map(used.map((d) => [d.day, d]));
  const days = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.now() - (29 - i) * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, calls: 0, talkMins: 0, deductedMins: 0 };
  });
  const max = Math.max(...days.map((d) => d.talkMins));
  const width = 600;
  const height = 160;
  const bar = width / days.length;
  return (
    <figure className="chart">
      <svg
        viewBox={`-48 0 ${width + 68} ${height + 20}`}
        role="img"
        aria-label="Talk minutes per day"
        data-testid="minutes-chart"
      >
        <text x={-36} y={height / 2} textAnchor="middle" className="axis" transform={`rotate(-90 -36 ${height / 2})`}>
          Minutes
        </text>
        <text x={-4} y={8} textAnchor="end" className="axis">
          {max.toFixed(max < 1 ? 2 : 1)}
        </text>
        <text x={-4} y={height} textAnchor="end" className="axis">
          0
        </text>
        <line x1={0} y1={0} x2={0} y2={height} className="axis-line" />
        {days.map((d, i) => {
          const h = d.talkMins > 0 ? Math.max(2, (d.talkMins / max) * height) : 0;
          return (
            <g key={d.day}>
              <rect x={i * bar + 2} y={height - h} width={bar - 4} height={h} className="bar">
                <title>{`${d.day}: ${d.talkMins.toFixed(2)} min, ${d.calls} calls`}</title>
              </rect>
              {i % 5 === 4 && (
                <text x={i * bar + bar / 2} y={height + 14} textAnchor="middle" className="axis">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>Talk minutes per day</caption>
        <thead>
          <tr>
            <th>Day</th>
            <th>Minutes</th>
            <th>Calls</th>
          </tr>
        </thead>
        <tbody>
          {used.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.talkMins.toFixed(2)}</td>
              <td>{d.calls}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
