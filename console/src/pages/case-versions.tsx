import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { QueryView, formatDate } from '../ui';
import { promptDiff } from './prompt-diff';

/** The versions shown: the latest ones (a case changes by hand, so a page of them is its recent history). */
const SHOWN = 20;

/**
 * A case's versions (docs/testing-your-assistant.md, "Case versions"), newest first; one chosen shows its prompt
 * against the version before it, line by line. Its query key extends the case's, so whatever refreshes the case
 * (tools attached) refreshes its versions too.
 */
export function CaseVersions({
  orgId,
  caseId,
  queryKey,
}: {
  orgId: string;
  caseId: string;
  queryKey: readonly unknown[];
}) {
  const versions = useQuery({
    queryKey: [...queryKey, 'versions'],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/cases/{id}/versions', {
          params: { path: { orgId, id: caseId }, query: { limit: SHOWN } },
        }),
      ),
  });
  const [chosen, setChosen] = useState<number | null>(null);
  return (
    <section className="panel" aria-labelledby="case-versions-h">
      <h2 id="case-versions-h">Versions</h2>
      <QueryView query={versions}>
        {({ data }) => {
          const shown = data.find((v) => v.version === chosen) ?? data[0];
          const before = data.find((v) => v.version === shown.version - 1);
          return (
            <>
              <ul className="rows" data-testid="case-versions">
                {data.map((v) => (
                  <li key={v.version}>
                    <button
                      type="button"
                      aria-pressed={v.version === shown.version}
                      onClick={() => setChosen(v.version)}
                    >
                      Version {v.version}
                    </button>{' '}
                    {formatDate(v.createdAt)}
                  </li>
                ))}
              </ul>
              <h3>
                Prompt of version {shown.version}
                {before ? ` against version ${before.version}` : ''}
              </h3>
              <pre className="prompt-diff" data-testid="prompt-diff">
                {(before ? promptDiff(before.prompt, shown.prompt) : promptDiff(shown.prompt, shown.prompt)).map(
                  (line, i) => (
                    <span key={i} className={`diff-${line.kind}`}>
                      {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
                      {line.text}
                      {'\n'}
                    </span>
                  ),
                )}
              </pre>
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
