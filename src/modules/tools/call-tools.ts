import type { ToolCallError } from './tool-call-error';
import type { Tool, ToolMessages, ToolType, TransferDestination, TransferMode } from './tool.entity';

/** Tool calls recorded on one call; an invocation past it is answered `messages.failed` and only logged. */
export const MAX_TOOL_CALLS_PER_CALL = 20;
/** A recorded `arguments` or `result` longer than this (serialised) is recorded as null, `truncated: true`. */
export const RECORDED_VALUE_BYTES = 2048;

/**
 * A tool as a call carries it: copied from the case's tools when the call is created, so a later change to the
 * tool or the case does not change calls already made. Never the secret, which is read when the tool is called.
 */
export interface CallTool {
  id: string;
  type: ToolType;
  name: string | null;
  description: string | null;
  parameters: object | null;
  url: string | null;
  timeoutSeconds: number | null;
  messages: ToolMessages | null;
  destinations: TransferDestination[] | null;
  providerToolId: string | null;
}

/** A tool's `result`: any JSON value. */
export type ToolResult = string | number | boolean | object | null;

export const TOOL_CALL_STATUSES = ['succeeded', 'failed', 'timed-out'] as const;
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];

/** One invocation of a function tool during a call, as the call shows it. */
export interface ToolCallRecord {
  /** The platform's id of the invocation (`toolCallId`). */
  id: string;
  name: string;
  arguments: object | null;
  /** Any JSON value the tool answered as `result`; null when it failed. */
  result: ToolResult;
  status: ToolCallStatus;
  durationMs: number;
  at: string;
  /** `arguments` or `result` was longer than RECORDED_VALUE_BYTES and is recorded as null. */
  truncated?: true;
  /** Why the call failed or timed out (absent when it succeeded). */
  error?: ToolCallError;
}

/** Said to the caller before a warm transfer whose destination has no `message`. */
export const DEFAULT_TRANSFER_MESSAGE = 'Please hold while I transfer your call.';
/** Said to the person taking a warm transfer whose destination has no `handoffMessage`. */
export const DEFAULT_HANDOFF_MESSAGE =
  'You have a call transferred by our assistant. Connecting you with the caller now.';

export const TRANSFER_STATUSES = ['completed', 'failed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** A call's transfer to another number. */
export interface CallTransfer {
  to: string;
  mode: TransferMode;
  status: TransferStatus;
  at: string;
}

export function callToolOf(tool: Tool): CallTool {
  return {
    id: tool.id,
    type: tool.type,
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    url: tool.url,
    timeoutSeconds: tool.timeoutSeconds,
    messages: tool.messages,
    destinations: tool.destinations,
    providerToolId: tool.providerToolId,
  };
}

/** Every transfer destination number among `tools`. */
export function transferNumbers(tools: readonly CallTool[]): string[] {
  return tools.flatMap((t) => (t.type === 'transfer' ? (t.destinations ?? []).map((d) => d.number) : []));
}

/**
 * `tools` without the transfer destinations in `refused` (docs/contracts/destinations.md): a transfer tool left
 * with none is dropped. Null when nothing was refused, so a caller writes only what changed.
 */
export function withoutDestinations(tools: readonly CallTool[], refused: ReadonlySet<string>): CallTool[] | null {
  if (!transferNumbers(tools).some((n) => refused.has(n))) return null;
  return tools.flatMap((t) => {
    if (t.type !== 'transfer') return [t];
    const destinations = (t.destinations ?? []).filter((d) => !refused.has(d.number));
    return destinations.length ? [{ ...t, destinations }] : [];
  });
}

/** A record bounded for storage: a value too long to keep in the call's row is recorded as null. */
export function boundedRecord(record: Omit<ToolCallRecord, 'truncated'>): ToolCallRecord {
  const fits = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null)) <= RECORDED_VALUE_BYTES;
  const args = fits(record.arguments);
  const result = fits(record.result);
  if (args && result) return record;
  return {
    ...record,
    arguments: args ? record.arguments : null,
    result: result ? record.result : null,
    truncated: true,
  };
}
