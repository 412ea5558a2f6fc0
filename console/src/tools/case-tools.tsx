import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TOOL_LIMITS } from '../../../src/modules/tools/tool-limits';
import { api, problemWith, unwrap, type Schemas } from '../api';
import { Field, FormActions, QueryView } from '../ui';
import { useOrgId } from '../pages/org-layout';
import { toolLabel, toolSummary, type Tool } from './tool-summary';
import { useTools } from './tools-page';

type Case = Schemas['CaseResponse'];

/** Platform tool ids as typed: one a line (commas work too), blanks dropped. */
const idsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((id) => id.trim())
    .filter(Boolean);

/**
 * A case's tools on its page: the organization's tools it carries, in order, and the voice platform's tool ids
 * passed through; "Change tools" replaces both lists at once (POST /admin/v1/cases/{caseId}/tools).
 */
export function CaseTools({ item, queryKey }: { item: Case; queryKey: readonly unknown[] }) {
  const orgId = useOrgId();
  const tools = useTools(orgId);
  const [changing, setChanging] = useState(false);
  return (
    <section className="panel" aria-labelledby="case-tools-h">
      <h2 id="case-tools-h">Tools</h2>
      <QueryView query={tools}>
        {({ data }) => (
          <>
            <AttachedTools item={item} tools={data} />
            {changing ? (
              <AttachToolsForm item={item} tools={data} queryKey={queryKey} onDone={() => setChanging(false)} />
            ) : (
              <button type="button" onClick={() => setChanging(true)}>
                Change tools
              </button>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}

function AttachedTools({ item, tools }: { item: Case; tools: Tool[] }) {
  if (item.toolIds.length === 0 && item.integrationToolIds.length === 0) {
    return <p className="empty">No tools: calls of this case only talk.</p>;
  }
  return (
    <>
      <ul className="rows" data-testid="case-tools">
        {item.toolIds.map((id) => {
          const tool = tools.find((t) => t.id === id);
          return (
            <li key={id}>
              {tool ? (
                <>
                  <strong>{toolLabel(tool)}</strong> <span className="badge">{tool.type}</span>{' '}
                  <span className="muted">{toolSummary(tool)}</span>
                </>
              ) : (
                <code>{id}</code>
              )}
            </li>
          );
        })}
      </ul>
      {item.integrationToolIds.length > 0 && (
        <p data-testid="case-integration-tools">
          Voice platform tools:{' '}
          {item.integrationToolIds.map((id) => (
            <code key={id}>{id} </code>
          ))}
        </p>
      )}
    </>
  );
}

function AttachToolsForm({
  item,
  tools,
  queryKey,
  onDone,
}: {
  item: Case;
  tools: Tool[];
  queryKey: readonly unknown[];
  onDone: () => void;
}) {
  const client = useQueryClient();
  const max = TOOL_LIMITS.perCase;
  const [chosen, setChosen] = useState<string[]>(item.toolIds);
  const [integration, setIntegration] = useState(item.integrationToolIds.join('\n'));
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/cases/{caseId}/tools', {
          params: { path: { caseId: item.id } },
          body: { toolIds: chosen, integrationToolIds: idsOf(integration) },
        }),
      ),
    onSuccess: (result) => {
      client.setQueryData(queryKey, result);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const toggle = (id: string, on: boolean) => setChosen(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  return (
    <form onSubmit={submit} aria-label="Change tools">
      <fieldset>
        <legend>
          The organization&apos;s tools ({chosen.length} of at most {max} chosen)
        </legend>
        {tools.length === 0 && <p className="empty">The organization has no tools yet (see Tools).</p>}
        <div className="checks">
          {tools.map((tool) => (
            <label key={tool.id}>
              <input
                type="checkbox"
                checked={chosen.includes(tool.id)}
                disabled={!chosen.includes(tool.id) && chosen.length >= max}
                onChange={(e) => toggle(tool.id, e.target.checked)}
              />{' '}
              {toolLabel(tool)} ({tool.type})
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label="Voice platform tool ids"
        hint={`Tools configured on the voice platform, passed through as they are: one a line, at most ${max}.`}
        problem={problemWith(save.error, 'integrationToolIds')}
      >
        {(id) => <textarea id={id} rows={3} value={integration} onChange={(e) => setIntegration(e.target.value)} />}
      </Field>
      <FormActions saveLabel="Save tools" busy={save.isPending} error={save.error} onCancel={onDone} />
    </form>
  );
}
