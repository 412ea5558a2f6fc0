import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { QueryView, Table } from '../ui';

/**
 * An A/B campaign's variants side by side (docs/testing-your-assistant.md, "Reading an A/B report"): one column per
 * case version, read again while the campaign moves, with the p-value of the two success rates.
 */
export function CampaignVariants({
  orgId,
  livemode,
  id,
  refetchInterval,
}: {
  orgId: string;
  livemode: boolean;
  id: string;
  refetchInterval: number | false;
}) {
  const report = useQuery({
    queryKey: ['campaign-variants', orgId, livemode, id],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/campaigns/{id}/variants', {
          params: { path: { orgId, id }, query: { livemode } },
        }),
      ),
    refetchInterval,
  });
  return (
    <QueryView query={report}>
      {({ data }) => {
        const rows: Array<[string, (v: (typeof data.variants)[number]) => string]> = [
          ['Weight', (v) => String(v.weight)],
          ['Entries', (v) => String(v.entries)],
          ['Calls', (v) => String(v.calls)],
          ['Answered by a person', (v) => String(v.answered)],
          ['Voicemail', (v) => String(v.voicemail)],
          ['Successes', (v) => `${v.successTrue} of ${v.successTrue + v.successFalse} judged`],
          ['Talk minutes', (v) => v.talkMinutes.toFixed(2)],
          ['Provider cost (USD)', (v) => v.providerCostUsd.toFixed(4)],
        ];
        return (
          <>
            <Table
              headers={['Figure', ...data.variants.map((v) => `Version ${v.caseVersion}`)]}
              testId="campaign-variants"
              label="Variants"
            >
              {rows.map(([label, value]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {data.variants.map((v) => (
                    <td key={v.caseVersion}>{value(v)}</td>
                  ))}
                </tr>
              ))}
            </Table>
            <p data-testid="campaign-p-value">
              {data.pValue === null
                ? 'p-value: not yet (two variants with judged calls on each side are needed)'
                : `p-value: ${data.pValue.toFixed(4)}${data.pValue < 0.05 ? ' (unlikely to be chance)' : ''}`}
            </p>
          </>
        );
      }}
    </QueryView>
  );
}
