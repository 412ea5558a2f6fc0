import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Retell, sign } from 'retell-sdk';
import { DeclarationSchema } from '../support/declaration-schema';

export const RETELL_KEY = 'test-retell-key';

export interface RetellRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** The Retell call id a create-phone-call was answered with. */
  accepted?: string;
  /** The Retell call id a create-phone-call placed while answering with an error (failAfterPlacing). */
  placedAnyway?: string;
}

export interface SendOptions {
  /** Lost on the way: never reaches the service. */
  drop?: boolean;
  /** Held this long first. */
  delayMs?: number;
}

type Agent = Retell.AgentResponse;
type Call = Retell.PhoneCallResponse;

/** The SDK's request types the fake judges bodies by, from the SDK's own declaration files. */
let schema: DeclarationSchema | null = null;
const retellSchema = () => (schema ??= new DeclarationSchema('Retell'));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stand-in for Retell on 127.0.0.1, as strict as Retell and no kinder (docs/providers.md, "The fake Retell"):
 *
 * - REST: create/update LLM and agent, create-phone-call, get-call, stop-call, get/update phone number; Bearer
 *   auth (401 otherwise); every body judged by the SDK's declarations (retell-sdk) and refused 400 with Retell's
 *   `{ error_message }` for an unknown or mistyped field; a create-phone-call answers 429 over the account's
 *   concurrency and whatever status a test tells it to; `down()` refuses connections until `up()`.
 * - Webhooks: sent to the agent's `webhook_url` (rebased onto the service), signed with the SDK's `sign` and the
 *   API key, only for the agent's `webhook_events`; any can be dropped, delayed, repeated or sent out of order.
 *   Custom functions and the inbound webhook are called as Retell calls them.
 */
export class FakeRetell {
  readonly requests: RetellRequest[] = [];
  readonly llms = new Map<string, Retell.LlmResponse>();
  readonly agents = new Map<string, Agent>();
  readonly calls = new Map<string, Call>();
  readonly numbers = new Map<string, Retell.PhoneNumberResponse>();
  /** Webhooks as they went out: the event, the Retell call id and the service's status (null: not sent). */
  readonly sent: Array<{ event: string; callId: string; status: number | null }> = [];
  /** Calls whose `call_ended` and `call_analyzed` are lost on the way, whenever sent (Retell ids). */
  readonly lostReports = new Set<string>();
  concurrencyLimit: number | null = null;
  peakLive = 0;
  serviceUrl = '';
  url = '';
  private failures: number[] = [];
  /** Statuses the next create-phone-call requests answer with after placing the call all the same. */
  private failuresAfterPlacing: number[] = [];
  private server!: Server;
  private port = 0;

  static async start(): Promise<FakeRetell> {
    retellSchema();
    const fake = new FakeRetell();
    await fake.listen();
    fake.url = `http://127.0.0.1:${fake.port}`;
    return fake;
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Retell goes away: connections are refused until `up()`. */
  async down(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }

  up(): Promise<void> {
    return this.listen();
  }

  /** The next create-phone-call requests answer with these statuses, in order. */
  failNext(...statuses: number[]): void {
    this.failures.push(...statuses);
  }

  /** The next create-phone-call places the call, then answers with this status (what a 5xx or a timeout hides). */
  failAfterPlacing(status: number): void {
    this.failuresAfterPlacing.push(status);
  }

  /** A number the account owns (bought or imported in Retell's dashboard). */
  addNumber(number: string): void {
    this.numbers.set(number, {
      phone_number: number,
      phone_number_type: 'retell-twilio',
      last_modification_timestamp: Date.now(),
    } as Retell.PhoneNumberResponse);
  }

  liveCalls(): number {
    return [...this.calls.values()].filter((c) => c.call_status === 'registered' || c.call_status === 'ongoing').length;
  }

  createCalls(): RetellRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v2/create-phone-call');
  }

  /** Waits for the accepted create-phone-call whose metadata names our call. */
  async createCallFor(callId: string, timeoutMs = 10_000): Promise<{ request: RetellRequest; retellCallId: string }> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const request = this.createCalls().find(
        (r) => (r.body as Retell.CallCreatePhoneCallParams).metadata && r.accepted && this.ours(r) === callId,
      );
      if (request) return { request, retellCallId: request.accepted! };
      await sleep(20);
    }
    throw new Error(`no accepted create-phone-call for ${callId}`);
  }

  private ours(r: RetellRequest): unknown {
    return ((r.body as Retell.CallCreatePhoneCallParams).metadata as { callId?: unknown }).callId;
  }

  /** The call picks up: `call_started`. */
  started(retellCallId: string, options: SendOptions = {}): Promise<number | null> {
    this.update(retellCallId, { call_status: 'ongoing', start_timestamp: Date.now() });
    return this.event(retellCallId, 'call_started', options);
  }

  /** The call ends with these figures: `call_ended`. */
  ended(retellCallId: string, figures: Partial<Call>, options: SendOptions = {}): Promise<number | null> {
    const start = this.calls.get(retellCallId)?.start_timestamp ?? Date.now();
    this.update(retellCallId, { call_status: 'ended', end_timestamp: start + (figures.duration_ms ?? 0), ...figures });
    return this.event(retellCallId, 'call_ended', options);
  }

  /** Retell's post-call analysis is ready: `call_analyzed` (after `call_ended`, as Retell sends it). */
  analyzed(retellCallId: string, analysis: Call['call_analysis'], options: SendOptions = {}): Promise<number | null> {
    this.update(retellCallId, { call_analysis: analysis });
    return this.event(retellCallId, 'call_analyzed', options);
  }

  /** What the call's agent says, as Retell renders it: `{{name}}` filled from the call's dynamic variables. */
  said(retellCallId: string, template: string | null | undefined): string {
    const variables = this.calls.get(retellCallId)?.retell_llm_dynamic_variables ?? {};
    return (template ?? '').replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, name: string) => variables[name] ?? '');
  }

  /** The LLM behind a call's agent. */
  llmOf(retellCallId: string): Retell.LlmResponse {
    const agent = this.agents.get(this.calls.get(retellCallId)!.agent_id)!;
    return this.llms.get((agent.response_engine as { llm_id: string }).llm_id)!;
  }

  /**
   * A person answers and talks for 30 s: `call_started`, `call_ended` (the agent's first message and the person's
   * reply, 12 cents), then `call_analyzed` with `extracted` as the custom analysis data.
   */
  async answerHuman(retellCallId: string, extracted?: Record<string, unknown>): Promise<void> {
    await this.started(retellCallId);
    const start = this.calls.get(retellCallId)!.start_timestamp!;
    await this.ended(retellCallId, {
      disconnection_reason: 'user_hangup',
      duration_ms: 30_000,
      transcript_object: [
        {
          role: 'agent',
          content: this.said(retellCallId, this.llmOf(retellCallId).begin_message),
          words: [{ start: 0.5 }],
        },
        { role: 'user', content: 'Hi there', words: [{ start: 2 }] },
      ],
      recording_url: `https://retell.example/recordings/${retellCallId}.wav`,
      call_cost: { combined_cost: 12, product_costs: [], total_duration_seconds: 30, total_duration_unit_price: 0.4 },
      start_timestamp: start,
    });
    await this.analyzed(retellCallId, {
      call_summary: 'The customer confirmed.',
      call_successful: true,
      in_voicemail: false,
      ...(extracted ? { custom_analysis_data: extracted } : {}),
    });
  }

  /**
   * An answering machine picks up: with the agent's voicemail option, Retell detects it and leaves the option's
   * message (or hangs up), ending `voicemail_reached`; without one, the agent talks to the machine until it hangs
   * up (`user_hangup`).
   */
  async answerMachine(retellCallId: string): Promise<void> {
    const agent = this.agents.get(this.calls.get(retellCallId)!.agent_id)!;
    const option = agent.voicemail_option;
    await this.started(retellCallId);
    const first = {
      role: 'agent' as const,
      content: this.said(retellCallId, this.llmOf(retellCallId).begin_message),
      words: [],
    };
    const action = option?.action;
    const message =
      action && 'text' in action
        ? [{ role: 'agent' as const, content: this.said(retellCallId, action.text), words: [] }]
        : [];
    await this.ended(
      retellCallId,
      option
        ? { disconnection_reason: 'voicemail_reached', duration_ms: 9_000, transcript_object: [first, ...message] }
        : {
            disconnection_reason: 'user_hangup',
            duration_ms: 14_000,
            transcript_object: [first, { role: 'user', content: 'Please leave a message after the tone.', words: [] }],
          },
    );
    await this.analyzed(retellCallId, { call_summary: 'A machine answered.', in_voicemail: Boolean(option) });
  }

  /**
   * The agent uses its (first) transfer_call tool, as Retell plays it: `transfer_started`; a cold transfer hands
   * the call over and ends it `call_transfer`; a warm one rings the destination, bridges (`transfer_bridged`),
   * says the public handoff message to both sides and ends `transfer_bridged`; then `call_ended`.
   */
  async transfer(retellCallId: string): Promise<void> {
    const tool = this.llmOf(retellCallId).general_tools?.find((t) => t.type === 'transfer_call');
    if (tool?.type !== 'transfer_call' || tool.transfer_destination.type !== 'predefined') {
      throw new Error('the agent has no transfer_call tool with a predefined number');
    }
    const to = tool.transfer_destination.number;
    const option = tool.transfer_option;
    await this.event(retellCallId, 'transfer_started');
    const warm = option?.type === 'warm_transfer';
    const handoff = warm ? option.public_handoff_option : undefined;
    const said = handoff && 'message' in handoff && handoff.message ? [handoff.message] : [];
    if (warm) await this.event(retellCallId, 'transfer_bridged');
    const first = this.said(retellCallId, this.llmOf(retellCallId).begin_message);
    await this.ended(retellCallId, {
      disconnection_reason: warm ? 'transfer_bridged' : 'call_transfer',
      transfer_destination: to,
      duration_ms: 20_000,
      call_cost: { combined_cost: 7, product_costs: [], total_duration_seconds: 20, total_duration_unit_price: 0.35 },
      transcript_object: [first, 'Please put me through.', ...said].map((content, i) => ({
        role: i === 1 ? ('user' as const) : ('agent' as const),
        content,
        words: [],
      })),
    });
    await this.event(retellCallId, 'transfer_ended');
  }

  /** Sends one call webhook as Retell does: the agent asked for the event, signed, to its webhook_url. */
  async event(retellCallId: string, event: string, options: SendOptions = {}): Promise<number | null> {
    const call = this.calls.get(retellCallId)!;
    const agent = this.agents.get(call.agent_id)!;
    const lost = this.lostReports.has(retellCallId) && (event === 'call_ended' || event === 'call_analyzed');
    if (!agent.webhook_url || !agent.webhook_events?.includes(event as never) || options.drop || lost) {
      this.sent.push({ event, callId: retellCallId, status: null });
      return null;
    }
    if (options.delayMs) await sleep(options.delayMs);
    const status = await this.post(agent.webhook_url, { event, call });
    this.sent.push({ event, callId: retellCallId, status });
    return status;
  }

  /** The agent calls a custom function: POST to its url with `{ name, call, args }`; the service's answer. */
  async callTool(retellCallId: string, name: string, args: Record<string, unknown>) {
    const call = this.calls.get(retellCallId)!;
    const agent = this.agents.get(call.agent_id)!;
    const llmId = (agent.response_engine as { llm_id: string }).llm_id;
    const tool = this.llms.get(llmId)!.general_tools?.find((t) => t.name === name);
    if (tool?.type !== 'custom') throw new Error(`the agent has no custom function ${name}`);
    return this.request(tool.url, { name, call, args });
  }

  /**
   * A caller dials a number: the number's inbound webhook is asked, and the call is made with the agent,
   * variables and metadata the answer names (Retell hangs up when it names no agent and the number has none).
   */
  async inbound(to: string, from: string): Promise<{ retellCallId: string | null; answer: unknown }> {
    const number = this.numbers.get(to);
    if (!number?.inbound_webhook_url) throw new Error(`${to} has no inbound webhook`);
    const { status, body } = await this.request(number.inbound_webhook_url, {
      event: 'call_inbound',
      call_inbound: { from_number: from, to_number: to },
    });
    const answer = (
      body as { call_inbound?: { override_agent_id?: string; dynamic_variables?: Record<string, string> } }
    )?.call_inbound;
    if (status !== 200 || !answer?.override_agent_id || !this.agents.has(answer.override_agent_id)) {
      return { retellCallId: null, answer: body };
    }
    const call = this.newCall(answer.override_agent_id, from, to, 'inbound', answer.dynamic_variables, undefined);
    return { retellCallId: call.call_id, answer: body };
  }

  update(retellCallId: string, figures: Partial<Call>): void {
    const call = this.calls.get(retellCallId);
    if (!call) throw new Error(`no Retell call ${retellCallId}`);
    this.calls.set(retellCallId, { ...call, ...figures } as Call);
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }

  private rebased(url: string): string {
    const target = new URL(url);
    return `${this.serviceUrl}${target.pathname}${target.search}`;
  }

  private async post(url: string, body: unknown): Promise<number> {
    return (await this.request(url, body)).status;
  }

  /** POSTs a signed body to the service (Retell's signature over the exact bytes sent). */
  private async request(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const raw = JSON.stringify(body);
    const response = await fetch(this.rebased(url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-retell-signature': await sign(raw, RETELL_KEY) },
      body: raw,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  private newCall(
    agentId: string,
    from: string,
    to: string,
    direction: 'inbound' | 'outbound',
    variables: Record<string, string> | undefined,
    metadata: unknown,
  ): Call {
    const call: Call = {
      call_id: `call_${randomUUID().replace(/-/g, '')}`,
      call_type: 'phone_call',
      agent_id: agentId,
      agent_version: 0,
      call_status: 'registered',
      direction,
      from_number: from,
      to_number: to,
      ...(variables ? { retell_llm_dynamic_variables: variables } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    };
    this.calls.set(call.call_id, call);
    this.peakLive = Math.max(this.peakLive, this.liveCalls());
    return call;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const record: RetellRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: null };
    this.requests.push(record);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const fail = (status: number, message: string) => send(status, { status: 'error', error_message: message });
    if (req.headers.authorization !== `Bearer ${RETELL_KEY}`) return fail(401, 'Invalid API key');
    try {
      record.body = text ? JSON.parse(text) : null;
    } catch {
      return fail(400, 'Invalid JSON');
    }
    const judged = (type: string) => {
      const errors = retellSchema().validate(type, record.body ?? {});
      if (errors.length) fail(400, errors.join('; '));
      return errors.length === 0;
    };
    const { method, path } = record;
    const body = record.body as Record<string, unknown>;
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/create-retell-llm') {
      if (!judged('LlmCreateParams')) return;
      const llm = { ...body, llm_id: `llm_${randomUUID().slice(0, 8)}`, version: 0 } as Retell.LlmResponse;
      this.llms.set(llm.llm_id, llm);
      return send(201, llm);
    }
    if (method === 'PATCH' && (match = /^\/update-retell-llm\/([^/?]+)$/.exec(path))) {
      const llm = this.llms.get(match[1]);
      if (!llm) return fail(404, 'LLM not found');
      if (!judged('LlmUpdateParams')) return;
      this.llms.set(llm.llm_id, { ...llm, ...body } as Retell.LlmResponse);
      return send(200, this.llms.get(llm.llm_id));
    }
    if (method === 'POST' && path === '/create-agent') {
      if (!judged('AgentCreateParams')) return;
      const engine = body.response_engine as { llm_id?: string };
      if (engine?.llm_id && !this.llms.has(engine.llm_id)) return fail(404, 'LLM not found');
      const agent = { ...body, agent_id: `agent_${randomUUID().slice(0, 8)}`, version: 0 } as unknown as Agent;
      this.agents.set(agent.agent_id, agent);
      return send(201, agent);
    }
    if (method === 'PATCH' && (match = /^\/update-agent\/([^/?]+)$/.exec(path))) {
      const agent = this.agents.get(match[1]);
      if (!agent) return fail(404, 'Agent not found');
      if (!judged('AgentUpdateParams')) return;
      this.agents.set(agent.agent_id, { ...agent, ...body } as Agent);
      return send(200, this.agents.get(agent.agent_id));
    }
    if (method === 'POST' && path === '/v2/create-phone-call') {
      if (!judged('CallCreatePhoneCallParams')) return;
      const params = body as unknown as Retell.CallCreatePhoneCallParams;
      const failure = this.failures.shift();
      if (failure) return fail(failure, `failure ${failure}`);
      if (!this.numbers.has(params.from_number)) return fail(404, `from_number ${params.from_number} not found`);
      if (!params.override_agent_id || !this.agents.has(params.override_agent_id)) {
        return fail(400, 'override_agent_id names no agent');
      }
      if (this.concurrencyLimit !== null && this.liveCalls() >= this.concurrencyLimit) {
        return fail(429, 'Concurrency limit reached');
      }
      const call = this.newCall(
        params.override_agent_id,
        params.from_number,
        params.to_number,
        'outbound',
        params.retell_llm_dynamic_variables,
        params.metadata,
      );
      const hidden = this.failuresAfterPlacing.shift();
      if (hidden) {
        record.placedAnyway = call.call_id;
        return fail(hidden, `failure ${hidden}`);
      }
      record.accepted = call.call_id;
      return send(201, call);
    }
    if (method === 'POST' && path === '/v3/list-calls') {
      if (!judged('CallListParams')) return;
      const params = body as unknown as Retell.CallListParams;
      const filters = (params.filter_criteria?.metadata ?? []) as Array<{
        key?: string;
        op: string;
        type: string;
        value?: unknown;
      }>;
      // The fake knows the metadata equality filters (the service's lookup); any other filter is refused.
      const others = Object.keys(params.filter_criteria ?? {}).filter((key) => key !== 'metadata');
      if (others.length || filters.some((f) => f.type !== 'string' || f.op !== 'eq' || !f.key)) {
        return fail(
          400,
          `the fake filters on metadata string equality only, not ${JSON.stringify(params.filter_criteria)}`,
        );
      }
      const items = [...this.calls.values()].filter((call) =>
        filters.every((f) => (call.metadata as Record<string, unknown> | undefined)?.[f.key!] === f.value),
      );
      return send(200, { items: items.slice(0, params.limit ?? 50), has_more: items.length > (params.limit ?? 50) });
    }
    if (method === 'GET' && (match = /^\/v2\/get-call\/([^/?]+)$/.exec(path))) {
      const call = this.calls.get(decodeURIComponent(match[1]));
      return call ? send(200, call) : fail(404, 'Call not found');
    }
    if (method === 'POST' && (match = /^\/v2\/stop-call\/([^/?]+)$/.exec(path))) {
      const call = this.calls.get(decodeURIComponent(match[1]));
      if (!call) return fail(404, 'Call not found');
      if (call.call_status !== 'ongoing' && call.call_status !== 'registered') return fail(400, 'Call is not live');
      res.writeHead(204);
      res.end();
      // Retell hangs up and reports the end as any other: call_ended, manual_stopped.
      const duration = Date.now() - (call.start_timestamp ?? Date.now());
      return void this.ended(call.call_id, { disconnection_reason: 'manual_stopped', duration_ms: duration });
    }
    if ((match = /^\/(get|update)-phone-number\/([^/?]+)$/.exec(path))) {
      const number = this.numbers.get(decodeURIComponent(match[2]));
      if (!number) return fail(404, 'Phone number not found');
      if (method === 'GET' && match[1] === 'get') return send(200, number);
      if (method === 'PATCH' && match[1] === 'update') {
        if (!judged('PhoneNumberUpdateParams')) return;
        this.numbers.set(number.phone_number, { ...number, ...body } as Retell.PhoneNumberResponse);
        return send(200, this.numbers.get(number.phone_number));
      }
    }
    fail(404, `Cannot ${method} ${path}`);
  }
}
