import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { MAX_TOOL_CALLS_PER_CALL, ToolResult } from '../tools/call-tools';
import {
  DEFAULT_FAILED_MESSAGE,
  FunctionToolInvoker,
  Invocation,
  InvocationOutcome,
} from '../tools/function-tool-invoker';
import type { Call } from './call.entity';
import { CallsRepository } from './calls.repository';

/** What the assistant is told for one invocation. */
export interface ToolCallReply {
  toolCallId: string;
  result: ToolResult;
}

/**
 * Runs the function tools a live call's assistant asks for (docs/tools.md, "Function tools"), whoever asks
 * (the simulator's step, Vapi's `tool-calls` message): each named tool of the call's own copy is invoked, all
 * at once, and each invocation is recorded on the call (at most MAX_TOOL_CALLS_PER_CALL; the same id once).
 * An unknown name, a call that is not live, or an invocation past the bound is answered with the failure
 * message without calling anything.
 */
@Injectable()
export class ToolCallsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ToolCallsService.name);
  /** Invocations run beside the job that asked for them (runInBackground), awaited at shutdown. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly calls: CallsRepository,
    private readonly invoker: FunctionToolInvoker,
  ) {}

  async run(callId: string, invocations: Invocation[]): Promise<ToolCallReply[]> {
    const call = callId ? await this.calls.findById(callId) : null;
    const room = call && call.status === 'processing' ? MAX_TOOL_CALLS_PER_CALL - call.toolCalls.length : 0;
    return Promise.all(
      invocations.map(async (invocation, i) => {
        const tool = call?.tools.find((t) => t.type === 'function' && t.name === invocation.name);
        if (!call || !tool || i >= room) {
          this.logger.warn(
            { callId, tool: invocation.name, reason: !call ? 'unknown call' : !tool ? 'unknown tool' : 'bound' },
            'Tool call refused',
          );
          return { toolCallId: invocation.toolCallId, result: tool?.messages?.failed ?? DEFAULT_FAILED_MESSAGE };
        }
        const outcome = await this.invoker.invoke(contextOf(call), tool, invocation);
        await this.record(call.id, outcome);
        return { toolCallId: invocation.toolCallId, result: outcome.reply };
      }),
    );
  }

  /**
   * For the simulator's step job: the tools run beside it, so a slow customer tool (up to 30 s) never holds one
   * of the voice-event worker's slots, which every call's steps share. Lost only if the process dies meanwhile.
   */
  runInBackground(callId: string, invocations: Invocation[]): void {
    const running = this.run(callId, invocations)
      .catch((error: unknown) => this.logger.error({ callId, err: error }, 'Tool calls failed'))
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async record(callId: string, outcome: InvocationOutcome): Promise<void> {
    const { record } = outcome;
    if (record.status !== 'succeeded') {
      this.logger.warn(
        { callId, tool: record.name, status: record.status, durationMs: record.durationMs, error: record.error },
        `Tool call failed: ${record.error?.message ?? record.status}`,
      );
    }
    await this.calls.appendToolCall(callId, record, MAX_TOOL_CALLS_PER_CALL);
  }
}

function contextOf(call: Call) {
  return {
    id: call.id,
    organizationId: call.organizationId,
    direction: call.direction,
    to: call.callTo,
    from: call.callFrom,
    caseId: call.caseId,
    contactId: call.contactId,
    livemode: call.livemode,
  };
}
