import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { ConfirmButton, ErrorNote, QueryView } from '../ui';
import { useLivemode, useOrgId, worldParams } from '../pages/org-layout';
import { SCENARIO_BOUNDS } from '../../../src/modules/scenarios/scenario-bounds';
import type { Scenario } from './scenario-draft';
import { ScenarioForm } from './scenario-form';
import { inFlight, ScenarioRunResult } from './scenario-run-result';

/** How often a run not ended yet is read again. */
const POLL_MS = 1000;

/**
 * A case's scenarios in the world of the switch (docs/testing-your-assistant.md): written, changed and deleted
 * here, run one by one or all at once, each showing its latest run, read again until it ends.
 */
export function CaseScenarios({ orgId, caseId }: { orgId: string; caseId: string }) {
  const livemode = useLivemode();
  const client = useQueryClient();
  const queryKey = ['scenarios', orgId, livemode, caseId] as const;
  const scenarios = useQuery({
    queryKey,
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/scenarios', {
          params: { path: { orgId }, query: { livemode, caseId, limit: SCENARIO_BOUNDS.perCase } },
        }),
      ),
  });
  const [editing, setEditing] = useState<Scenario | 'new' | null>(null);
  const runAll = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/scenarios/runs', {
          params: worldParams(orgId, livemode),
          body: { caseId },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: [...queryKey, 'runs'] }),
  });
  return (
    <section className="panel" aria-labelledby="case-scenarios-h">
      <h2 id="case-scenarios-h">Scenarios</h2>
      <p className="muted">
        Scripted conversations with this case&apos;s assistant, judged expectation by expectation.{' '}
        {livemode
          ? "Live runs talk to the voice platform's chat API (its chat price)."
          : 'Test runs talk to the simulator: free and always the same.'}
      </p>
      <QueryView query={scenarios}>
        {({ data }) => (
          <>
            {editing === null && (
              <p>
                <button type="button" onClick={() => setEditing('new')}>
                  New scenario
                </button>{' '}
                {data.length > 0 && (
                  <button type="button" onClick={() => runAll.mutate()} disabled={runAll.isPending}>
                    Run all
                  </button>
                )}
              </p>
            )}
            {runAll.error ? <ErrorNote error={runAll.error} /> : null}
            {editing !== null && (
              <ScenarioForm
                // A fresh draft for each scenario opened (Edit on another row while one form is open).
                key={editing === 'new' ? 'new' : editing.id}
                caseId={caseId}
                scenario={editing === 'new' ? undefined : editing}
                queryKey={queryKey}
                onDone={() => setEditing(null)}
              />
            )}
            {data.length === 0 ? (
              <p className="empty">No scenarios yet.</p>
            ) : (
              <ul className="rows scenarios" data-testid="scenarios">
                {data.map((s) => (
                  <ScenarioRow key={s.id} scenario={s} queryKey={queryKey} onEdit={() => setEditing(s)} />
                ))}
              </ul>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}

function ScenarioRow({
  scenario,
  queryKey,
  onEdit,
}: {
  scenario: Scenario;
  queryKey: readonly unknown[];
  onEdit: () => void;
}) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const params = { ...worldParams(orgId, livemode), path: { orgId, id: scenario.id } };
  const runsKey = [...queryKey, 'runs', scenario.id];
  const latest = useQuery({
    queryKey: runsKey,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/admin/v1/organizations/{orgId}/scenarios/{id}/runs', {
            params: { ...params, query: { ...params.query, limit: 1 } },
          }),
        )
      ).data[0] ?? null,
    refetchInterval: (query) => (inFlight(query.state.data ?? undefined) ? POLL_MS : false),
  });
  const run = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/v1/organizations/{orgId}/scenarios/{id}/runs', { params, body: {} })),
    onSuccess: () => void client.invalidateQueries({ queryKey: runsKey }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/organizations/{orgId}/scenarios/{id}', { params })),
    onSuccess: () => void client.invalidateQueries({ queryKey }),
  });
  const headingId = `scenario-${scenario.id}`;
  return (
    <li aria-labelledby={headingId} data-testid="scenario">
      <h3 id={headingId}>{scenario.name}</h3>
      <p className="muted">
        {scenario.turns.length === 1 ? '1 turn' : `${scenario.turns.length} turns`}: {scenario.turns.join(' / ')}
      </p>
      <p>
        <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
          Run {scenario.name}
        </button>{' '}
        <button type="button" className="secondary" onClick={onEdit}>
          Edit {scenario.name}
        </button>{' '}
        <ConfirmButton
          label={`Delete ${scenario.name}`}
          confirmLabel="Delete this scenario? Its runs stay readable by their ids."
          yesLabel="Yes, delete it"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </p>
      {run.error ? <ErrorNote error={run.error} /> : null}
      {remove.error ? <ErrorNote error={remove.error} /> : null}
      <QueryView query={latest}>
        {(found) => (found ? <ScenarioRunResult run={found} /> : <p className="empty">Not run yet.</p>)}
      </QueryView>
    </li>
  );
}
