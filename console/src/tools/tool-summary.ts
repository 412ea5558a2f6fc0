import type { Schemas } from '../api';

export type Tool = Schemas['ToolResponse'];

/** How a tool is named in lists: platform tools may have no name, so their platform id stands in. */
export const toolLabel = (tool: Tool): string => tool.name ?? `platform tool ${tool.providerToolId ?? tool.id}`;

/** The one line that tells tools of a type apart: where a function calls, where a transfer goes, which platform tool. */
export function toolSummary(tool: Tool): string {
  switch (tool.type) {
    case 'function':
      return `${tool.url ?? ''} · ${tool.timeoutSeconds ?? '—'} s`;
    case 'transfer':
      return (tool.destinations ?? []).map((d) => `${d.number} (${d.mode})`).join(', ');
    case 'platform':
      return `provider tool ${tool.providerToolId ?? ''}`;
    case 'end-call':
      return 'hangs up';
  }
}
