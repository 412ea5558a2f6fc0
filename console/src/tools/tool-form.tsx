import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { TOOL_LIMITS } from '../../../src/modules/tools/tool-limits';
import { createToolDtoTypeValues } from '../generated/admin';
import { api, problemWith, unwrap, type Schemas } from '../api';
import { Field, FormActions } from '../ui';
import { orgPath, useOrgId } from '../pages/org-layout';
import { TransferDestinationsFields, type Destination } from './transfer-destinations';
import type { Tool } from './tool-summary';

type ToolType = Schemas['CreateToolDto']['type'];
type Fields = Omit<Schemas['CreateToolDto'], 'type'>;
export type CreatedTool = Schemas['CreatedToolResponse'];

const TYPE_LABELS: Record<ToolType, string> = {
  function: 'Function: the assistant calls your URL',
  transfer: 'Transfer: forwards the call to a number',
  'end-call': 'End call: the assistant hangs up',
  platform: 'Platform: a tool configured on the voice platform',
};

const STARTING_PARAMETERS = JSON.stringify(
  { type: 'object', properties: { orderId: { type: 'string', description: 'The order number' } } },
  null,
  2,
);

/** What the form holds: every type's fields as typed, so switching the type of a new tool loses nothing. */
interface Draft {
  type: ToolType;
  name: string;
  description: string;
  parameters: string;
  url: string;
  timeoutSeconds: string;
  start: string;
  failed: string;
  destinations: Destination[];
  providerToolId: string;
}

function draftOf(tool: Tool | undefined): Draft {
  return {
    type: (tool?.type as ToolType | undefined) ?? 'function',
    name: tool?.name ?? '',
    description: tool?.description ?? '',
    parameters: tool?.parameters ? JSON.stringify(tool.parameters, null, 2) : STARTING_PARAMETERS,
    url: tool?.url ?? '',
    timeoutSeconds: tool?.timeoutSeconds != null ? String(tool.timeoutSeconds) : '',
    start: tool?.messages?.start ?? '',
    failed: tool?.messages?.failed ?? '',
    destinations: (tool?.destinations as Destination[] | null | undefined) ?? [{ number: '', mode: 'cold' }],
    providerToolId: tool?.providerToolId ?? '',
  };
}

/**
 * The JSON Schema as typed, parsed in the browser: text that is not a JSON object never leaves the page. Whether
 * it is a usable schema (`"type": "object"`, 16 KB, compiles) is the API's call, and its 400 is shown here too.
 */
function parseParameters(text: string): { value?: Record<string, unknown>; problem?: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { problem: 'Parameters must be a JSON object, e.g. {"type": "object", "properties": {}}' };
    }
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * The body for the draft's type, holding only the fields that type takes (the API refuses the others, naming
 * them). A new tool leaves empty optional fields out; an edit sends an emptied description or message as empty,
 * which is how it is cleared.
 */
function fieldsOf(draft: Draft, parameters: Record<string, unknown> | undefined, editing: boolean): Fields {
  const optional = (value: string) => (value || editing ? value : undefined);
  const named = { ...(draft.name ? { name: draft.name } : {}), description: optional(draft.description) };
  switch (draft.type) {
    case 'function': {
      const messages = {
        ...(draft.start ? { start: draft.start } : {}),
        ...(draft.failed ? { failed: draft.failed } : {}),
      };
      return {
        ...named,
        parameters,
        url: draft.url,
        ...(draft.timeoutSeconds ? { timeoutSeconds: Number(draft.timeoutSeconds) } : {}),
        ...(editing || Object.keys(messages).length ? { messages } : {}),
      };
    }
    case 'transfer':
      return { ...named, destinations: draft.destinations };
    case 'end-call':
      return named;
    case 'platform':
      return { ...named, providerToolId: draft.providerToolId };
  }
}

/**
 * A new tool of any type, or an edit of one (its type fixed). Every field the API refuses is named under that
 * field; the envelope's message is shown under the buttons as well.
 */
export function ToolForm({
  tool,
  onSaved,
  onCancel,
}: {
  tool?: Tool;
  onSaved: (created?: CreatedTool) => void;
  onCancel: () => void;
}) {
  const orgId = useOrgId();
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(tool));
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const parsed = draft.type === 'function' ? parseParameters(draft.parameters) : {};
  const save = useMutation({
    mutationFn: async (): Promise<CreatedTool | undefined> => {
      const body = fieldsOf(draft, parsed.value, tool !== undefined);
      if (tool) {
        await unwrap(api.PATCH('/admin/v1/tools/{id}', { params: { path: { id: tool.id } }, body }));
        return undefined;
      }
      const created = await unwrap(
        api.POST('/admin/v1/organizations/{orgId}/tools', {
          params: orgPath(orgId),
          body: { type: draft.type, ...body },
        }),
      );
      return created.data;
    },
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['tools', orgId] });
      onSaved(created);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.problem) save.mutate();
  };
  const problem = (field: string) => problemWith(save.error, field);
  return (
    <form onSubmit={submit} className="panel" aria-label={tool ? `Edit tool ${tool.name ?? ''}` : 'New tool'}>
      <Field label="Type" hint={tool ? 'A tool keeps its type.' : undefined}>
        {(id) => (
          <select
            id={id}
            value={draft.type}
            disabled={tool !== undefined}
            onChange={(e) => set({ type: e.target.value as ToolType })}
          >
            {createToolDtoTypeValues.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label={draft.type === 'platform' ? 'Name (optional)' : 'Name'}
        hint="Letters, digits, _ and -, at most 64; unique in the organization. The assistant sees it."
        problem={problem('name')}
      >
        {(id) => (
          <input
            id={id}
            required={draft.type !== 'platform'}
            maxLength={64}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
          />
        )}
      </Field>
      <Field label="Description" hint="When the assistant should use it" problem={problem('description')}>
        {(id) => (
          <input
            id={id}
            maxLength={TOOL_LIMITS.description}
            value={draft.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      {draft.type === 'function' && (
        <FunctionFields draft={draft} set={set} localProblem={parsed.problem} problem={problem} />
      )}
      {draft.type === 'transfer' && (
        <TransferDestinationsFields
          value={draft.destinations}
          onChange={(destinations) => set({ destinations })}
          problem={problem('destinations')}
        />
      )}
      {draft.type === 'platform' && (
        <Field
          label="Platform tool id"
          hint="The id of a tool that exists on the voice platform"
          problem={problem('providerToolId')}
        >
          {(id) => (
            <input
              id={id}
              required
              maxLength={TOOL_LIMITS.providerToolId}
              value={draft.providerToolId}
              onChange={(e) => set({ providerToolId: e.target.value })}
            />
          )}
        </Field>
      )}
      <FormActions
        saveLabel={tool ? 'Save tool' : 'Create tool'}
        busy={save.isPending}
        error={save.error}
        onCancel={onCancel}
      />
    </form>
  );
}

/** A function tool's own fields: the arguments' JSON Schema, where it is called, how long, what is said. */
function FunctionFields({
  draft,
  set,
  localProblem,
  problem,
}: {
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  localProblem: string | undefined;
  problem: (field: string) => string | undefined;
}) {
  const { min, max, default: fallback } = TOOL_LIMITS.timeoutSeconds;
  return (
    <>
      <Field
        label="Parameters (JSON Schema)"
        hint={`The arguments the assistant passes: an object schema, at most ${TOOL_LIMITS.parametersBytes / 1024} KB.`}
        problem={localProblem ?? problem('parameters')}
      >
        {(id) => (
          <textarea
            id={id}
            className="code"
            rows={8}
            spellCheck={false}
            aria-invalid={Boolean(localProblem ?? problem('parameters'))}
            value={draft.parameters}
            onChange={(e) => set({ parameters: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="URL"
        hint={
          'https and public; each call is signed with the tool\'s secret. It must answer 2xx with a JSON object ' +
          '{"result": …} (any JSON value as the result); anything else fails the call, with the reason on the call.'
        }
        problem={problem('url')}
      >
        {(id) => (
          <input
            id={id}
            type="url"
            required
            maxLength={2048}
            value={draft.url}
            onChange={(e) => set({ url: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="Timeout (seconds)"
        hint={`${min}-${max}; ${fallback} when empty`}
        problem={problem('timeoutSeconds')}
      >
        {(id) => (
          <input
            id={id}
            type="number"
            min={min}
            max={max}
            value={draft.timeoutSeconds}
            onChange={(e) => set({ timeoutSeconds: e.target.value })}
          />
        )}
      </Field>
      <Field label="Message while it runs" problem={problem('messages.start')}>
        {(id) => (
          <input
            id={id}
            maxLength={TOOL_LIMITS.message}
            value={draft.start}
            onChange={(e) => set({ start: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="Message when it fails"
        hint="What the assistant hears when the call fails or times out"
        problem={problem('messages.failed')}
      >
        {(id) => (
          <input
            id={id}
            maxLength={TOOL_LIMITS.message}
            value={draft.failed}
            onChange={(e) => set({ failed: e.target.value })}
          />
        )}
      </Field>
    </>
  );
}
