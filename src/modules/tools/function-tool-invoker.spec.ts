import { OutboundHttpClient, OutboundRequest, OutboundResult } from '../../common/outbound-http/outbound-http.client';
import type { AppConfig } from '../../infra/config/app-config';
import { fakeOf } from '../../infra/testing/fake-of';
import { CallTool, RECORDED_VALUE_BYTES } from './call-tools';
import {
  DEFAULT_FAILED_MESSAGE,
  FunctionToolInvoker,
  TOOL_ANSWER_MAX_BYTES,
  TOOL_CONNECTION_ATTEMPTS,
  ToolCallContext,
} from './function-tool-invoker';
import { ToolsService } from './tools.service';

const call: ToolCallContext = {
  id: 'call-1',
  organizationId: 'org-1',
  direction: 'outbound',
  to: '+14155550123',
  from: '+14155550100',
  caseId: 'case-1',
  contactId: null,
  livemode: true,
};

const tool = (fields: Partial<CallTool> = {}): CallTool => ({
  id: 'tool-1',
  type: 'function',
  name: 'book_slot',
  description: null,
  parameters: null,
  url: 'https://tools.example.com/book',
  timeoutSeconds: null,
  messages: null,
  destinations: null,
  providerToolId: null,
  ...fields,
});

const invocation = { toolCallId: 'tc-1', name: 'book_slot', arguments: { day: 'monday' } };

describe('FunctionToolInvoker', () => {
  let requests: OutboundRequest[];
  let answer: Partial<OutboundResult>;
  let secret: string | null;

  beforeEach(() => {
    requests = [];
    answer = {};
    secret = 'whsec_tool';
    // The customer's tool, at the edge of our outbound client: what it answered, never a socket.
    jest.spyOn(OutboundHttpClient.prototype, 'post').mockImplementation((request) => {
      requests.push(request);
      return Promise.resolve({
        statusCode: 200,
        durationMs: 12,
        body: '{"result":{"booked":true}}',
        error: null,
        failure: null,
        attempts: 1,
        ...answer,
      });
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const invoke = (t: CallTool = tool()) =>
    new FunctionToolInvoker(
      fakeOf<ToolsService>({ secretOf: () => Promise.resolve(secret) }),
      fakeOf<AppConfig>({ webhookAllowInsecure: false, webhookPrivateNetworks: [] }),
    ).invoke(call, t, invocation);

  it("posts the invocation and its call, signed with the tool's secret, within the tool's bounds", async () => {
    await invoke(tool({ timeoutSeconds: 3 }));
    const { organizationId: _organizationId, ...described } = call;
    expect(requests).toHaveLength(1);
    const { body, ...request } = requests[0];
    expect(JSON.parse(body)).toEqual({
      toolCallId: 'tc-1',
      name: 'book_slot',
      arguments: { day: 'monday' },
      // The call as the tool sees it: everything but the organization, which only picks the sockets.
      call: described,
    });
    expect(request).toEqual({
      url: 'https://tools.example.com/book',
      headers: { 'content-type': 'application/json', 'user-agent': 'voice-calling-tools/1' },
      signing: { id: 'tc-1', secret: 'whsec_tool' },
      timeoutMs: 3000,
      tenant: 'org-1',
      keepBytes: TOOL_ANSWER_MAX_BYTES,
      refuseLonger: true,
      connectionAttempts: TOOL_CONNECTION_ATTEMPTS,
    });
  });

  it('waits the default timeout for a tool that sets none, and sends {} for no arguments', async () => {
    await new FunctionToolInvoker(
      fakeOf<ToolsService>({ secretOf: () => Promise.resolve(secret) }),
      fakeOf<AppConfig>({ webhookAllowInsecure: false, webhookPrivateNetworks: [] }),
    ).invoke(call, tool(), { ...invocation, arguments: null });
    expect(requests[0].timeoutMs).toBe(10_000);
    expect(JSON.parse(requests[0].body).arguments).toEqual({});
  });

  it("answers the assistant with a 2xx JSON object's result, recorded as succeeded", async () => {
    const outcome = await invoke();
    expect(outcome.reply).toEqual({ booked: true });
    expect(outcome.record).toMatchObject({
      id: 'tc-1',
      name: 'book_slot',
      arguments: { day: 'monday' },
      result: { booked: true },
      status: 'succeeded',
    });
  });

  it('takes a null result as a result', async () => {
    answer = { body: '{"result":null}' };
    expect((await invoke()).record.status).toBe('succeeded');
  });

  const SHAPE = 'answer 2xx with a JSON object {"result": …}';
  it.each([
    [
      'an error status',
      { statusCode: 500, failure: 'status' as const, body: '{"result":1}' },
      { code: 'HTTP_STATUS', httpStatus: 500, message: `the tool answered HTTP 500; ${SHAPE}` },
    ],
    [
      'an answer without a body',
      { body: null },
      { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer has no body; ${SHAPE}` },
    ],
    [
      'an answer that is not JSON',
      { body: 'OK' },
      { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer is not JSON; ${SHAPE}` },
    ],
    [
      'a JSON array',
      { body: '[1]' },
      { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer is not a JSON object; ${SHAPE}` },
    ],
    [
      'a JSON object without result',
      { body: '{"available":true}' },
      { code: 'BAD_RESPONSE', httpStatus: 200, message: `the answer has no "result" member; ${SHAPE}` },
    ],
    [
      'an answer over the bound',
      { failure: 'too-large' as const, body: null, error: 'answer larger than 65536 bytes' },
      { code: 'TOO_LARGE', httpStatus: 200, message: `answer larger than 65536 bytes; ${SHAPE}` },
    ],
    [
      'a connection that failed every attempt',
      { failure: 'connection' as const, statusCode: null, body: null, error: 'ECONNREFUSED', attempts: 3 },
      { code: 'CONNECTION', message: "could not reach the tool's URL after 3 attempt(s): ECONNREFUSED" },
    ],
    [
      'an address the URL rules refuse',
      { failure: 'refused' as const, statusCode: null, body: null, error: 'private address 10.0.0.1' },
      { code: 'URL_REFUSED', message: "the tool's URL is not allowed: private address 10.0.0.1" },
    ],
  ])("fails on %s, saying why, and the assistant hears the tool's failure message", async (_case, failure, error) => {
    answer = failure;
    const outcome = await invoke(tool({ messages: { failed: 'Booking is down.' } as CallTool['messages'] }));
    expect(outcome.record).toMatchObject({ status: 'failed', result: null });
    expect(outcome.record.error).toEqual(error);
    expect(outcome.reply).toBe('Booking is down.');
  });

  it('records a late answer as timed out, with the default failure message when the tool sets none', async () => {
    answer = { failure: 'timeout', statusCode: null, body: null };
    const outcome = await invoke();
    expect(outcome.record.status).toBe('timed-out');
    expect(outcome.record.error).toEqual({
      code: 'TIMEOUT',
      message: "no answer within 10 s (the tool's timeoutSeconds)",
    });
    expect(outcome.reply).toBe(DEFAULT_FAILED_MESSAGE);
  });

  it('a succeeded call records no error', async () => {
    expect((await invoke()).record.error).toBeUndefined();
  });

  it('calls nothing for a tool deleted since the call was made (no secret) or without a URL', async () => {
    secret = null;
    expect((await invoke()).record).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
    secret = 'whsec_tool';
    expect((await invoke(tool({ url: null }))).record.status).toBe('failed');
    expect(requests).toEqual([]);
  });

  it('records a result too long to keep as null, marked truncated, but still answers with it', async () => {
    const long = 'x'.repeat(RECORDED_VALUE_BYTES);
    answer = { body: JSON.stringify({ result: long }) };
    const outcome = await invoke();
    expect(outcome.record).toMatchObject({ status: 'succeeded', result: null, truncated: true });
    expect(outcome.reply).toBe(long);
  });
});
