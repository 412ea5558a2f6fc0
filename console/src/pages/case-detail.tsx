import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api';
import { CaseScenarios } from '../scenarios/case-scenarios';
import { CaseTools } from '../tools/case-tools';
import { CaseVersions } from './case-versions';
import { QueryView, formatDate } from '../ui';
import { useOrgId, useWorldPath } from './org-layout';

/** One case: its script, its variables, and the tools its calls carry (changed here only, never by the public API). */
export function CaseDetailPage() {
  const orgId = useOrgId();
  const worldPath = useWorldPath();
  const caseId = useParams().caseId!;
  const queryKey = ['case', orgId, caseId] as const;
  const found = useQuery({
    queryKey,
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/cases/{id}', { params: { path: { orgId, id: caseId } } })),
  });
  return (
    <>
      <p>
        <Link to={worldPath(`/orgs/${orgId}/cases`)}>← Cases</Link>
      </p>
      <QueryView query={found}>
        {({ data: c }) => (
          <>
            <h1>{c.title}</h1>
            <div className="two-col">
              <section className="panel" aria-labelledby="case-facts-h">
                <h2 id="case-facts-h">Script</h2>
                <dl className="details">
                  <dt>First message</dt>
                  <dd>{c.firstMessage || '—'}</dd>
                  <dt>Prompt</dt>
                  <dd className="prompt">{c.prompt}</dd>
                  <dt>Variables</dt>
                  <dd>{c.variables.length ? c.variables.map((v) => v.name).join(', ') : '—'}</dd>
                  <dt>Updated</dt>
                  <dd>{formatDate(c.updatedAt)}</dd>
                </dl>
              </section>
              <CaseTools item={c} queryKey={queryKey} />
            </div>
            <CaseVersions orgId={orgId} caseId={caseId} queryKey={queryKey} />
            <CaseScenarios orgId={orgId} caseId={caseId} />
          </>
        )}
      </QueryView>
    </>
  );
}
