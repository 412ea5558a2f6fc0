import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TOOL_LIMITS } from '../../../src/modules/tools/tool-limits';
import { ApiFailure, api, unwrap } from '../api';
import { ConfirmButton, ErrorNote, QueryView, ShownOnce, formatDate } from '../ui';
import { orgPath, useOrgId } from '../pages/org-layout';
import { ToolForm } from './tool-form';
import { toolLabel, toolSummary, type Tool } from './tool-summary';

/** The organization's tools, for this page and the case page's picker (one list: at most 100, not paginated). */
export function useTools(orgId: string) {
  return useQuery({
    queryKey: ['tools', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/tools', { params: orgPath(orgId) })),
  });
}

/**
 * A refused delete said plainly: the API's 409 means a case still lists the tool, so the way out is named (its
 * own message, e.g. "Tool is in use: 1 case", follows).
 */
function DeleteRefusal({ tool, error }: { tool: Tool; error: unknown }) {
  if (error instanceof ApiFailure && error.code === 'CONFLICT') {
    return (
      <p role="alert" className="error">
        {toolLabel(tool)} is attached to a case, so it cannot be deleted: remove it from the case&apos;s tools on the
        case&apos;s page first. ({error.message})
      </p>
    );
  }
  return <ErrorNote error={error} />;
}

export function ToolsPage() {
  const orgId = useOrgId();
  const client = useQueryClient();
  const tools = useTools(orgId);
  const [editing, setEditing] = useState<Tool | 'new'>();
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const remove = useMutation({
    mutationFn: (tool: Tool) => unwrap(api.DELETE('/admin/v1/tools/{id}', { params: { path: { id: tool.id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['tools', orgId] }),
  });
  return (
    <>
      <h1>Tools</h1>
      <p className="muted">
        What an assistant can do during a call: call your URL, transfer the call, hang up, or use a tool of the voice
        platform. Attach them to a case on the case&apos;s page. At most {TOOL_LIMITS.perOrganization} tools.
      </p>
      {editing === undefined && (
        <button
          type="button"
          onClick={() => {
            // A secret on screen belongs to the tool just made; the next form starts without it.
            setSecret(undefined);
            setEditing('new');
          }}
        >
          New tool
        </button>
      )}
      {editing !== undefined && (
        <ToolForm
          key={editing === 'new' ? 'new' : editing.id}
          tool={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(undefined)}
          onSaved={(created) => {
            setEditing(undefined);
            if (created?.secret)
              setSecret({ label: `Signing secret of ${toolLabel(created)}.`, value: created.secret });
          }}
        />
      )}
      {secret && <ShownOnce label={secret.label} value={secret.value} />}
      <QueryView query={tools} empty="No tools yet." isEmpty={(d) => d.data.length === 0}>
        {({ data }) => (
          <ul className="rows" data-testid="tools">
            {data.map((tool) => (
              <li key={tool.id}>
                <strong>{toolLabel(tool)}</strong> <span className="badge">{tool.type}</span>
                <p className="muted">
                  {toolSummary(tool)} · updated {formatDate(tool.updatedAt)}
                </p>
                {tool.description && <p>{tool.description}</p>}
                <button type="button" className="secondary" onClick={() => setEditing(tool)}>
                  Edit {toolLabel(tool)}
                </button>{' '}
                <ConfirmButton
                  label={`Delete ${toolLabel(tool)}`}
                  confirmLabel={`Delete ${toolLabel(tool)}? This cannot be undone.`}
                  yesLabel="Delete tool"
                  busy={remove.isPending}
                  onConfirm={() => remove.mutate(tool)}
                />
                {remove.isError && remove.variables?.id === tool.id && (
                  <DeleteRefusal tool={tool} error={remove.error} />
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}
