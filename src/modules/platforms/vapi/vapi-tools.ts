import type { Vapi } from '@vapi-ai/server-sdk';
import { CallTool, DEFAULT_HANDOFF_MESSAGE, DEFAULT_TRANSFER_MESSAGE, ToolResult } from '../../tools/call-tools';
import type { Invocation } from '../../tools/function-tool-invoker';

type VapiTool = Vapi.OpenAiModelToolsItem;

const JSON_TYPES: ReadonlySet<string> = new Set<Vapi.JsonSchemaType>([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
]);
/** Nested schemas deeper than this are cut to a plain string property (parameters are bounded to 16 KB anyway). */
const MAX_DEPTH = 16;

/**
 * A customer's JSON Schema in the subset Vapi's `JsonSchema` takes (type, items, properties, description,
 * pattern, required, string enum, title): annotations Vapi would refuse as unknown properties (`example`,
 * `default`, `format` values it does not list) are left out; they only guide our simulator.
 */
function vapiJsonSchema(schema: Record<string, unknown>, depth = 0): Vapi.JsonSchema {
  const declared = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const type = (typeof declared === 'string' && JSON_TYPES.has(declared) ? declared : 'string') as Vapi.JsonSchemaType;
  const out: Vapi.JsonSchema = { type };
  if (depth >= MAX_DEPTH) return out;
  const text = (key: 'description' | 'pattern' | 'title') =>
    typeof schema[key] === 'string' ? { [key]: schema[key] as string } : {};
  Object.assign(out, text('description'), text('pattern'), text('title'));
  if (Array.isArray(schema.enum) && schema.enum.length && schema.enum.every((v) => typeof v === 'string')) {
    out.enum = schema.enum as string[];
  }
  if (Array.isArray(schema.required) && schema.required.every((v) => typeof v === 'string')) {
    out.required = schema.required as string[];
  }
  if (type === 'array' && isObject(schema.items)) out.items = vapiJsonSchema(schema.items, depth + 1);
  if (type === 'object' && isObject(schema.properties)) out.properties = vapiProperties(schema.properties, depth);
  return out;
}

function vapiProperties(properties: Record<string, unknown>, depth: number): Record<string, Vapi.JsonSchema> {
  return Object.fromEntries(
    Object.entries(properties).map(([name, value]) => [name, vapiJsonSchema(isObject(value) ? value : {}, depth + 1)]),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A function tool: its schema as Vapi's function parameters, its calls sent to our server (we proxy them); without
 * a server (a scripted chat), Vapi only reports the calls.
 */
function vapiFunctionTool(tool: CallTool, server?: Vapi.Server): VapiTool {
  const schema = (tool.parameters ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required)
    ? (schema.required as unknown[]).filter((r) => typeof r === 'string')
    : [];
  return {
    type: 'function',
    function: {
      name: tool.name!,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: {
        type: 'object',
        properties: isObject(schema.properties) ? vapiProperties(schema.properties, 0) : {},
        ...(required.length ? { required: required as string[] } : {}),
      },
    },
    ...(tool.messages?.start ? { messages: [{ type: 'request-start', content: tool.messages.start }] } : {}),
    // Vapi waits for our answer while we wait for the customer's: give it the tool's timeout and some slack.
    ...(server
      ? {
          server: { ...server, timeoutSeconds: Math.max(server.timeoutSeconds ?? 20, (tool.timeoutSeconds ?? 10) + 5) },
        }
      : {}),
  };
}

/**
 * A transfer tool: cold is Vapi's blind transfer; warm says the destination's `message` to the caller, then
 * dials the destination and says the `handoffMessage` (TransferPlan.message) to whoever answers before connecting
 * the caller: without it the person taking the call would hear nothing.
 */
function vapiTransferTool(tool: CallTool): VapiTool {
  return {
    type: 'transferCall',
    destinations: (tool.destinations ?? []).map((d) => ({
      type: 'number' as const,
      number: d.number,
      ...(d.description ? { description: d.description } : {}),
      ...(d.mode === 'warm' || d.message ? { message: d.message ?? DEFAULT_TRANSFER_MESSAGE } : {}),
      transferPlan:
        d.mode === 'warm'
          ? { mode: 'warm-transfer-say-message' as const, message: d.handoffMessage ?? DEFAULT_HANDOFF_MESSAGE }
          : { mode: 'blind-transfer' as const },
    })),
  };
}

/**
 * The call's tools as Vapi's model takes them (docs/providers.md, "Tools"): function tools as `function` tools
 * whose server is ours, transfers as `transferCall`, end-call as `endCall`; platform tools and the case's
 * integration tool ids as `toolIds`.
 */
export function vapiModelTools(
  tools: readonly CallTool[],
  integrationToolIds: readonly string[],
  server: Vapi.Server,
): { tools: VapiTool[]; toolIds: string[] } {
  const inline = tools.flatMap((tool): VapiTool[] => {
    if (tool.type === 'function') return [vapiFunctionTool(tool, server)];
    if (tool.type === 'transfer') return [vapiTransferTool(tool)];
    if (tool.type === 'end-call') return [{ type: 'endCall' }];
    return [];
  });
  const platform = tools.flatMap((t) => (t.type === 'platform' && t.providerToolId ? [t.providerToolId] : []));
  return { tools: inline, toolIds: [...new Set([...platform, ...integrationToolIds])] };
}

/**
 * The function tools of a scripted chat (a scenario run, docs/testing-your-assistant.md): no server, so Vapi reports
 * each call in the chat's output and nothing is sent to the customer's endpoint.
 */
export function vapiChatTools(tools: readonly CallTool[]): VapiTool[] {
  return tools.filter((tool) => tool.type === 'function').map((tool) => vapiFunctionTool(tool));
}

/** The invocations of a `tool-calls` message; arguments arrive as a JSON string (the SDK's type) or an object. */
export function invocationsOf(message: Vapi.ServerMessageToolCalls): Invocation[] {
  return (message.toolCallList ?? []).map((call) => {
    const raw: unknown = call.function?.arguments;
    let args: unknown = raw;
    if (typeof raw === 'string') {
      try {
        args = JSON.parse(raw);
      } catch {
        args = null;
      }
    }
    return { toolCallId: call.id, name: call.function?.name ?? '', arguments: isObject(args) ? args : null };
  });
}

/** Vapi's `tool-calls` answer: each result as text (Vapi's `result` is a string; JSON values are serialised). */
export function vapiToolResults(
  invocations: readonly Invocation[],
  replies: ReadonlyArray<{ toolCallId: string; result: ToolResult }>,
): Vapi.ServerMessageResponseToolCalls {
  return {
    results: replies.map((reply, i) => ({
      toolCallId: reply.toolCallId,
      name: invocations[i].name,
      result: typeof reply.result === 'string' ? reply.result : JSON.stringify(reply.result),
    })),
  };
}
