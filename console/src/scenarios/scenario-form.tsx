import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { SCENARIO_BOUNDS as B } from '../../../src/modules/scenarios/scenario-bounds';
import { api, problemWith, unwrap } from '../api';
import { Field, FormActions } from '../ui';
import { useLivemode, useOrgId, worldParams } from '../pages/org-layout';
import { checkDraft, draftOf, type DraftField, type Scenario, type ScenarioDraft } from './scenario-draft';

/**
 * A new scenario of the case, or an edit of one. The browser checks the bounds first (beside each field); what
 * the API still refuses is shown beside the field it names, its message under the buttons.
 */
export function ScenarioForm({
  caseId,
  scenario,
  queryKey,
  onDone,
}: {
  caseId: string;
  scenario?: Scenario;
  queryKey: readonly unknown[];
  onDone: () => void;
}) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(scenario));
  const [checked, setChecked] = useState(false);
  const set = (patch: Partial<ScenarioDraft>) => setDraft({ ...draft, ...patch });
  const { body, problems } = checkDraft(draft);
  const save = useMutation({
    mutationFn: async () => {
      const params = worldParams(orgId, livemode);
      if (scenario) {
        return unwrap(
          api.PATCH('/admin/v1/organizations/{orgId}/scenarios/{id}', {
            params: { ...params, path: { orgId, id: scenario.id } },
            body,
          }),
        );
      }
      return unwrap(api.POST('/admin/v1/organizations/{orgId}/scenarios', { params, body: { ...body, caseId } }));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!Object.keys(problems).length) save.mutate();
  };
  const problem = (field: DraftField) => (checked ? problems[field] : undefined) ?? problemWith(save.error, field);
  const title = scenario ? `Edit scenario ${scenario.name}` : 'New scenario';
  return (
    <form onSubmit={submit} className="panel" aria-label={title} noValidate>
      <h3>{title}</h3>
      <Field label="Name" hint={`1-${B.name} characters`} problem={problem('name')}>
        {(id) => <input id={id} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
      </Field>
      <Field
        label="The user's turns"
        hint={`One message a line, in order: 1-${B.turns}, each at most ${B.turnText} characters`}
        problem={problem('turns')}
      >
        {(id) => <textarea id={id} rows={3} value={draft.turns} onChange={(e) => set({ turns: e.target.value })} />}
      </Field>
      <Field
        label="Variables"
        hint="One a line, name=value: the case's {{variables}}; name is also how the simulator greets the user"
        problem={problem('variables')}
      >
        {(id) => (
          <textarea id={id} rows={2} value={draft.variables} onChange={(e) => set({ variables: e.target.value })} />
        )}
      </Field>
      <fieldset>
        <legend>Expectations</legend>
        <Field
          label="A reply includes"
          hint={`One string a line (any case): at most ${B.replyStrings}, each at most ${B.replyText} characters`}
          problem={problem('expect.replyIncludes')}
        >
          {(id) => (
            <textarea
              id={id}
              rows={2}
              value={draft.replyIncludes}
              onChange={(e) => set({ replyIncludes: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="No reply includes"
          hint={`One string a line (any case): at most ${B.replyStrings}, each at most ${B.replyText} characters`}
          problem={problem('expect.replyExcludes')}
        >
          {(id) => (
            <textarea
              id={id}
              rows={2}
              value={draft.replyExcludes}
              onChange={(e) => set({ replyExcludes: e.target.value })}
            />
          )}
        </Field>
        <ToolCallRows draft={draft} set={set} problem={problem('expect.toolCalls')} />
        <Field label="Hand-off to a person" problem={problem('expect.handOff')}>
          {(id) => (
            <select
              id={id}
              value={draft.handOff}
              onChange={(e) => set({ handOff: e.target.value as ScenarioDraft['handOff'] })}
            >
              <option value="">Not checked</option>
              <option value="true">Must be handed off</option>
              <option value="false">Must not be handed off</option>
            </select>
          )}
        </Field>
      </fieldset>
      <FormActions
        saveLabel={scenario ? 'Save scenario' : 'Create scenario'}
        busy={save.isPending}
        error={save.error}
        onCancel={onDone}
      />
    </form>
  );
}

/** The tool calls the assistant must make: a name each, and optionally arguments they must hold (JSON). */
function ToolCallRows({
  draft,
  set,
  problem,
}: {
  draft: ScenarioDraft;
  set: (patch: Partial<ScenarioDraft>) => void;
  problem: string | undefined;
}) {
  const rows = draft.toolCalls;
  const change = (i: number, patch: Partial<ScenarioDraft['toolCalls'][number]>) =>
    set({ toolCalls: rows.map((row, j) => (j === i ? { ...row, ...patch } : row)) });
  return (
    <fieldset>
      <legend>Tool calls</legend>
      {rows.map((row, i) => (
        <div className="tool-call-row" key={i}>
          <Field label={`Tool ${i + 1} name`}>
            {(id) => <input id={id} value={row.name} onChange={(e) => change(i, { name: e.target.value })} />}
          </Field>
          <Field label={`Tool ${i + 1} arguments include (JSON, optional)`}>
            {(id) => (
              <input
                id={id}
                placeholder='{"day": "Tuesday"}'
                value={row.argumentsInclude}
                onChange={(e) => change(i, { argumentsInclude: e.target.value })}
              />
            )}
          </Field>
          <button
            type="button"
            className="secondary"
            onClick={() => set({ toolCalls: rows.filter((_, j) => j !== i) })}
          >
            Remove tool {i + 1}
          </button>
        </div>
      ))}
      {rows.length < B.toolCalls && (
        <button
          type="button"
          className="secondary"
          onClick={() => set({ toolCalls: [...rows, { name: '', argumentsInclude: '' }] })}
        >
          Add a tool call
        </button>
      )}
      <small className="muted">
        {`At most ${B.toolCalls}; a string argument must be contained in the call's (any case), others equal; at most ${B.argumentKeys} arguments, ${B.argumentBytes} bytes`}
      </small>
      {problem && (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      )}
    </fieldset>
  );
}
