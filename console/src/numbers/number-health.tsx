import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap, type Schemas } from '../api';
import { useLivemode, useOrgId, useWorldPath } from '../pages/org-layout';
import { Field, QueryView, Table } from '../ui';

type Health = Schemas['NumberHealthResponse'];
type Day = Schemas['NumberHealthDayResponse'];

const RANGES = [7, 30, 90] as const;

const STATUS_SAID: Record<Health['status'], string> = {
  healthy: 'Healthy',
  watch: 'Watch: its last 50 calls answer at under three quarters of its 30-day rate',
  degraded: 'Degraded: its last 50 calls answer at under half of its 30-day rate; campaigns spreading calls skip it',
};

const rate = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)} %`);

function useNumberHealth(numberId: string, days: number) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  return useQuery({
    queryKey: ['number-health', orgId, livemode, numberId, days],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/phone-numbers/{id}/health', {
          params: { path: { orgId, id: numberId }, query: { livemode, days } },
        }),
      ),
  });
}

/** On the numbers list: the number's status, linking to its health page. */
export function NumberHealthLink({ numberId, number }: { numberId: string; number: string }) {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const health = useNumberHealth(numberId, 7);
  const status = health.data?.data.status;
  return (
    <Link to={worldPath(`/orgs/${orgId}/numbers/${numberId}/health`)}>
      Health<span className="sr-only"> of {number}</span>
      {status ? <span className={`badge badge-health-${status}`}>{status}</span> : null}
    </Link>
  );
}

/** A number's status and daily figures in the world shown (docs/number-health.md). */
export function NumberHealthPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const numberId = useParams().numberId!;
  const [days, setDays] = useState<number>(30);
  const health = useNumberHealth(numberId, days);
  return (
    <>
      <p>
        <Link to={worldPath(`/orgs/${orgId}/numbers`)}>← Phone numbers</Link>
      </p>
      <QueryView query={health}>
        {({ data }) => (
          <>
            <h1>
              Health of {data.number} <span className={`badge badge-health-${data.status}`}>{data.status}</span>
            </h1>
            <p data-testid="health-status">{STATUS_SAID[data.status]}.</p>
            <Field label="Days shown">
              {(id) => (
                <select id={id} value={days} onChange={(e) => setDays(Number(e.target.value))}>
                  {RANGES.map((r) => (
                    <option key={r} value={r}>
                      Last {r} days
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {data.days.length === 0 ? (
              <p className="empty">No call ended from this number in these days.</p>
            ) : (
              <section className="panel" aria-labelledby="days-h">
                <h2 id="days-h">Calls per day</h2>
                <HealthChart days={data.days} />
                <Table
                  headers={[
                    'Day (UTC)',
                    'Placed',
                    'Person',
                    'Voicemail',
                    'No answer',
                    'Failed',
                    'Answer rate',
                    'Avg talk',
                  ]}
                  label="Daily figures"
                  testId="health-days"
                >
                  {data.days.map((d) => (
                    <tr key={d.date}>
                      <td>{d.date}</td>
                      <td>{d.placed}</td>
                      <td>{d.human}</td>
                      <td>{d.voicemail}</td>
                      <td>{d.notAnswered}</td>
                      <td>{d.failed}</td>
                      <td>{rate(d.answerRate)}</td>
                      <td>{d.avgTalkSeconds === null ? '—' : `${Math.round(d.avgTalkSeconds)} s`}</td>
                    </tr>
                  ))}
                </Table>
              </section>
            )}
          </>
        )}
      </QueryView>
    </>
  );
}

const PARTS = [
  ['human', 'Person'],
  ['voicemail', 'Voicemail'],
  ['notAnswered', 'No answer'],
  ['failed', 'Failed'],
] as const;

/**
 * The days' calls as stacked bars (person, voicemail, no answer, failed), the answer rate as a line over them;
 * an inline SVG, no chart library. The table under it holds the same figures for screen readers.
 */
function HealthChart({ days }: { days: Day[] }) {
  const width = 600;
  const height = 140;
  const max = Math.max(1, ...days.map((d) => d.placed));
  // At most 40 px a day, so a week or a single day does not stretch into slabs.
  const bar = Math.min(40, width / days.length);
  const y = (count: number) => height - (count / max) * height;
  const rates = days.flatMap((d, i) =>
    d.answerRate === null ? [] : [{ x: i * bar + bar / 2, y: height - d.answerRate * height, date: d.date }],
  );
  return (
    <figure className="chart health-chart">
      <svg
        viewBox={`-40 0 ${width + 50} ${height + 20}`}
        role="img"
        aria-label={`Calls per day over ${days.length} days with calls, and the answer rate`}
        data-testid="health-chart"
      >
        <text x={-4} y={8} textAnchor="end" className="axis">
          {max}
        </text>
        <text x={-4} y={height} textAnchor="end" className="axis">
          0
        </text>
        {days.map((d, i) => {
          let base = 0;
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${d.placed} placed, ${d.human} person, ${d.voicemail} voicemail, ${d.notAnswered} no answer, ${d.failed} failed; answer rate ${rate(d.answerRate)}`}</title>
              {PARTS.map(([part]) => {
                const count = d[part];
                const top = base + count;
                const rect = (
                  <rect
                    key={part}
                    x={i * bar + 2}
                    y={y(top)}
                    width={Math.max(1, bar - 4)}
                    height={y(base) - y(top)}
                    className={`part-${part}`}
                  />
                );
                base = top;
                return rect;
              })}
              {(days.length <= 10 || i % Math.ceil(days.length / 8) === 0) && (
                <text x={i * bar + bar / 2} y={height + 14} textAnchor="middle" className="axis">
                  {d.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        <polyline points={rates.map((p) => `${p.x},${p.y}`).join(' ')} className="rate-line" />
        {rates.map((p) => (
          <circle key={p.date} cx={p.x} cy={p.y} r={3} className="rate-dot" />
        ))}
      </svg>
      <figcaption className="legend">
        {PARTS.map(([part, label]) => (
          <span key={part}>
            <span className={`swatch part-${part}`} aria-hidden="true" /> {label}
          </span>
        ))}
        <span>
          <span className="swatch rate-swatch" aria-hidden="true" /> Answer rate (top is 100 %)
        </span>
      </figcaption>
    </figure>
  );
}
