import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ANSWERED_BY } from '../../../src/modules/call-outcomes/answered-by';
import { api, unwrap, type Schemas } from '../api';
import { pathsAdminV1OrganizationsOrgIdReportsAnswerDetectionGetParametersQueryPlatformValues as VOICE_PLATFORMS } from '../generated/admin';
import { useLivemode, useOrgId } from '../pages/org-layout';
import { DateRangeFields, Field, QueryView, Table, Tip, rangeQuery } from '../ui';

type Platform = (typeof VOICE_PLATFORMS)[number];
type Detection = Schemas['PlatformDetectionResponse'];

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10} %`);

/**
 * How often each voice platform's answer detection agreed with a reviewer (docs/answer-detection.md): per
 * platform, labelled calls by what a person heard (rows) and what the platform detected (columns), with voicemail
 * precision and recall. Calls are labelled from their own page.
 */
export function DetectionReportPage() {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [platform, setPlatform] = useState<Platform | ''>('');
  const [campaignId, setCampaignId] = useState('');
  const query = { ...rangeQuery(from, to), ...(platform ? { platform } : {}), ...(campaignId ? { campaignId } : {}) };
  const report = useQuery({
    queryKey: ['answer-detection', orgId, livemode, query],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/reports/answer-detection', {
          params: { path: { orgId }, query: { ...query, livemode } },
        }),
      ),
  });
  const campaigns = useQuery({
    queryKey: ['campaign-choices', orgId, livemode],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/campaigns', {
          // The 100 most recent campaigns (one page): older ones are rarely what a reviewer compares.
          params: { path: { orgId }, query: { livemode, limit: 100 } },
        }),
      ),
  });
  return (
    <>
      <h1>Answer detection</h1>
      <p className="muted">
        Labelled calls only: a reviewer says who answered from the call's page, beside its recording.
      </p>
      <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <DateRangeFields from={from} to={to} onFrom={setFrom} onTo={setTo} labels={['Calls from', 'Calls to']} />
        <Field label="Voice platform">
          {(id) => (
            <select id={id} value={platform} onChange={(e) => setPlatform(e.target.value as Platform | '')}>
              <option value="">All platforms</option>
              {VOICE_PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Campaign">
          {(id) => (
            <select id={id} value={campaignId} onChange={(e) => setCampaignId(e.target.value)}>
              <option value="">Any call</option>
              {campaigns.data?.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      <QueryView
        query={report}
        empty="No labelled call matches these filters."
        isEmpty={(d) => d.data.platforms.length === 0}
      >
        {({ data }) => (
          <>
            {data.platforms.map((p) => (
              <PlatformMatrix key={p.platform} detection={p} />
            ))}
          </>
        )}
      </QueryView>
    </>
  );
}

function PlatformMatrix({ detection: d }: { detection: Detection }) {
  return (
    <section className="panel" aria-labelledby={`det-${d.platform}`} data-testid={`detection-${d.platform}`}>
      <h2 id={`det-${d.platform}`}>
        {d.platform} <span className="muted">· {d.labelled} labelled calls</span>
      </h2>
      <p>
        Voicemail precision <strong data-testid="precision">{percent(d.voicemailPrecision)}</strong>{' '}
        <Tip label="What voicemail precision means">
          Of the calls the platform detected as voicemail, the share a person also heard as voicemail.
        </Tip>{' '}
        · recall <strong data-testid="recall">{percent(d.voicemailRecall)}</strong>{' '}
        <Tip label="What voicemail recall means">
          Of the calls a person heard as voicemail, the share the platform detected as voicemail (no verdict is a miss).
        </Tip>
      </p>
      <Table
        headers={['Heard \\ detected', ...ANSWERED_BY]}
        label={`Confusion matrix of ${d.platform}`}
        testId={`matrix-${d.platform}`}
      >
        {ANSWERED_BY.map((heard) => (
          <tr key={heard}>
            <th scope="row">{heard}</th>
            {ANSWERED_BY.map((detected) => (
              <td key={detected} className={heard === detected ? 'agree' : undefined}>
                {d.matrix[heard]?.[detected] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </section>
  );
}
