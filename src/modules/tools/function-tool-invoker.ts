import { Inject, Injectable } from '@nestjs/common';
import { OutboundHttpClient, OutboundResult } from '../../common/outbound-http/outbound-http.client';
import { OutboundUrlPolicy } from '../../common/url-safety/outbound-url-policy';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { CallTool, ToolCallRecord, ToolCallStatus, ToolResult, boundedRecord } from './call-tools';
import { TOOL_LIMITS } from './tool-limits';
import { ToolCallError, answerError, exchangeError } from './tool-call-error';
import { ToolsService } from './tools.service';

/** Bytes of a tool's answer read at most; a longer answer fails the call (docs/tools.md). */
export const TOOL_ANSWER_MAX_BYTES = 64 * 1024;
/** Requests sent at most for one invocation, only when the connection fails before any answer. */
export const TOOL_CONNECTION_ATTEMPTS = 3;
/** Sockets per organization to one tool host in this process: a hanging tool holds only its own. */
const SOCKETS_PER_ORGANIZATION = 10;
/** What the assistant hears when a call fails and the tool sets no `messages.failed`. */
export const DEFAULT_FAILED_MESSAGE = 'The tool could not be reached. Tell the caller you cannot do that right now.';

/** The call a tool is invoked for, as the tool's request describes it. */
export interface ToolCallContext {
  id: string;
  organizationId: string;
  direction: string;
  to: string;
  from: string;
  caseId: string | null;
  contactId: string | null;
  livemode: boolean;
}

export interface Invocation {
  toolCallId: string;
  name: string;
  arguments: object | null;
}

/** The outcome of one invocation: what is recorded on the call and what the assistant is told. */
export interface InvocationOutcome {
  record: ToolCallRecord;
  /** The tool's result, or its failure message. */
  reply: ToolResult;
}

/**
 * Calls a customer's function tool (docs/tools.md, "Function tools"): POSTs the invocation to the tool's URL,
 * signed like a webhook with the tool's secret, under the tool's timeout and the outbound URL rules, at most
 * TOOL_CONNECTION_ATTEMPTS requests on connection errors only. A 2xx JSON object with `result` is the result;
 * anything else (an error status, non-JSON, no `result`, over 64 KB, late) fails the call, and the assistant
 * hears the tool's `messages.failed`. Never throws.
 */
@Injectable()
export class FunctionToolInvoker {
  private readonly http: OutboundHttpClient;

  constructor(
    private readonly tools: ToolsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.http = new OutboundHttpClient({
      name: 'tools',
      socketsPerTenant: SOCKETS_PER_ORGANIZATION,
      policy: OutboundUrlPolicy.fromConfig(config),
    });
  }

  async invoke(call: ToolCallContext, tool: CallTool, invocation: Invocation): Promise<InvocationOutcome> {
    const at = new Date().toISOString();
    const started = performance.now();
    const failedReply = tool.messages?.failed ?? DEFAULT_FAILED_MESSAGE;
    const outcome = (status: ToolCallStatus, result: ToolResult, error?: ToolCallError): InvocationOutcome => ({
      record: boundedRecord({
        id: invocation.toolCallId,
        name: invocation.name,
        arguments: invocation.arguments,
        result,
        status,
        durationMs: Math.round(performance.now() - started),
        at,
        ...(error ? { error } : {}),
      }),
      reply: status === 'succeeded' ? result : failedReply,
    });
    const secret = await this.tools.secretOf(tool.id);
    // The tool was deleted after the call was created (detached from its case first): nothing to sign with.
    if (!secret || !tool.url) {
      return outcome('failed', null, { code: 'URL_REFUSED', message: 'the tool was deleted after the call was made' });
    }
    const body = JSON.stringify({
      toolCallId: invocation.toolCallId,
      name: invocation.name,
      arguments: invocation.arguments ?? {},
      call: {
        id: call.id,
        direction: call.direction,
        to: call.to,
        from: call.from,
        caseId: call.caseId,
        contactId: call.contactId,
        livemode: call.livemode,
      },
    });
    const timeoutSeconds = tool.timeoutSeconds ?? TOOL_LIMITS.timeoutSeconds.default;
    const answer = await this.http.post({
      url: tool.url,
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'voice-calling-tools/1' },
      // The invocation's id is the receiver's idempotency key, the same on every attempt.
      signing: { id: invocation.toolCallId, secret },
      timeoutMs: timeoutSeconds * 1000,
      tenant: call.organizationId,
      keepBytes: TOOL_ANSWER_MAX_BYTES,
      refuseLonger: true,
      connectionAttempts: TOOL_CONNECTION_ATTEMPTS,
    });
    const failed = exchangeError(answer, timeoutSeconds);
    if (failed) return outcome(failed.code === 'TIMEOUT' ? 'timed-out' : 'failed', null, failed);
    const result = resultOf(answer);
    return 'error' in result ? outcome('failed', null, result.error) : outcome('succeeded', result.value);
  }
}

/** The `result` of a 2xx answer, or why the answer is not a JSON object with `result`. */
function resultOf(answer: OutboundResult): { value: ToolResult } | { error: ToolCallError } {
  const refused = (problem: string) => ({ error: answerError(problem, answer.statusCode) });
  if (answer.body === null) return refused('the answer has no body');
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return refused('the answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refused('the answer is not a JSON object');
  }
  if (!('result' in parsed)) return refused('the answer has no "result" member');
  return { value: (parsed as { result: ToolResult }).result ?? null };
}
