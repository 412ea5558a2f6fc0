import { Logger } from '@nestjs/common';
import { fakeOf } from '../../infra/testing/fake-of';
import { CallTool, MAX_TOOL_CALLS_PER_CALL, ToolCallRecord } from '../tools/call-tools';
import { DEFAULT_FAILED_MESSAGE, FunctionToolInvoker, Invocation } from '../tools/function-tool-invoker';
import { InMemoryCalls } from './testing/in-memory-calls';
import { ToolCallsService } from './tool-calls.service';

const functionTool = (name: string, failed?: string): CallTool => ({
  id: `tool-${name}`,
  type: 'function',
  name,
  description: null,
  parameters: null,
  url: `https://tools.example.com/${name}`,
  timeoutSeconds: null,
  messages: failed ? ({ failed } as CallTool['messages']) : null,
  destinations: null,
  providerToolId: null,
});

const record = (id: string, status: ToolCallRecord['status'] = 'succeeded'): ToolCallRecord => ({
  id,
  name: 'lookup',
  arguments: null,
  result: status === 'succeeded' ? 'ok' : null,
  status,
  durationMs: 5,
  at: '2026-03-04T12:00:00.000Z',
});

describe('ToolCallsService', () => {
  let store: InMemoryCalls;
  let invoked: Array<[string, string]>;
  /** Resolves the invocations held back (to see runInBackground's work awaited at shutdown). */
  let hold: Promise<void> | null;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    store = new InMemoryCalls();
    invoked = [];
    hold = null;
  });

  const service = () =>
    new ToolCallsService(
      store.repository(),
      fakeOf<FunctionToolInvoker>({
        invoke: async (context, tool, invocation) => {
          if (hold) await hold;
          invoked.push([context.id, tool.name!]);
          const status = invocation.name === 'broken' ? 'failed' : 'succeeded';
          return {
            record: { ...record(invocation.toolCallId, status), name: invocation.name },
            reply:
              status === 'succeeded'
                ? `answer of ${invocation.name}`
                : (tool.messages?.failed ?? DEFAULT_FAILED_MESSAGE),
          };
        },
      }),
    );

  const ask = (...names: string[]): Invocation[] =>
    names.map((name, i) => ({ toolCallId: `tc-${i + 1}`, name, arguments: null }));

  it("invokes each named tool of the call's own copy and records each invocation on the call", async () => {
    const call = store.add({ status: 'processing', tools: [functionTool('lookup'), functionTool('broken')] });
    const replies = await service().run(call.id, ask('lookup', 'broken'));
    expect(replies).toEqual([
      { toolCallId: 'tc-1', result: 'answer of lookup' },
      { toolCallId: 'tc-2', result: DEFAULT_FAILED_MESSAGE },
    ]);
    expect(store.get(call.id).toolCalls.map((r) => [r.id, r.status])).toEqual([
      ['tc-1', 'succeeded'],
      ['tc-2', 'failed'],
    ]);
  });

  it("answers an unknown name with the failure message and calls nothing, the tool's own when it has one", async () => {
    const call = store.add({ status: 'processing', tools: [{ ...functionTool('transfer'), type: 'transfer' }] });
    expect(await service().run(call.id, ask('transfer', 'nowhere'))).toEqual([
      { toolCallId: 'tc-1', result: DEFAULT_FAILED_MESSAGE },
      { toolCallId: 'tc-2', result: DEFAULT_FAILED_MESSAGE },
    ]);
    expect(invoked).toEqual([]);
  });

  it('calls nothing for a call that is unknown or not live', async () => {
    const ended = store.add({ status: 'ended', tools: [functionTool('lookup', 'Not now.')] });
    expect(await service().run(ended.id, ask('lookup'))).toEqual([{ toolCallId: 'tc-1', result: 'Not now.' }]);
    expect(await service().run('', ask('lookup'))).toEqual([{ toolCallId: 'tc-1', result: DEFAULT_FAILED_MESSAGE }]);
    expect(await service().run('gone', ask('lookup'))).toEqual([
      { toolCallId: 'tc-1', result: DEFAULT_FAILED_MESSAGE },
    ]);
    expect(invoked).toEqual([]);
  });

  it(`invokes at most ${MAX_TOOL_CALLS_PER_CALL} tools over a call, and answers the rest with the failure message`, async () => {
    const earlier = Array.from({ length: MAX_TOOL_CALLS_PER_CALL - 1 }, (_, i) => record(`old-${i}`));
    const call = store.add({ status: 'processing', tools: [functionTool('lookup')], toolCalls: earlier });
    const replies = await service().run(call.id, ask('lookup', 'lookup'));
    expect(replies.map((r) => r.result)).toEqual(['answer of lookup', DEFAULT_FAILED_MESSAGE]);
    expect(invoked).toHaveLength(1);
    expect(store.get(call.id).toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_CALL);
  });

  it('runs tools beside the job that asked, and waits for them at shutdown', async () => {
    const call = store.add({ status: 'processing', tools: [functionTool('lookup')] });
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const tools = service();
    tools.runInBackground(call.id, ask('lookup'));
    expect(invoked).toEqual([]);
    const shutdown = tools.beforeApplicationShutdown();
    release();
    await shutdown;
    expect(invoked).toEqual([[call.id, 'lookup']]);
    expect(store.get(call.id).toolCalls).toHaveLength(1);
  });
});
