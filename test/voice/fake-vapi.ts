import type { Vapi } from '@vapi-ai/server-sdk';
import { createHmac, randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VapiOpenApi, VapiSchemaName } from './vapi-openapi';
import { VapiSchema } from './vapi-schema';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON; for POST /call, the body our adapter sent (typed as what Vapi accepts). */
  body: Vapi.CreateCallDto | null;
  /** The Vapi call id it was answered with (accepted POST /call only). */
  accepted?: string;
  /** The Vapi call id of a POST /call the account's concurrency pool blocked (answered with that call, ended). */
  blocked?: string;
  /** The Vapi call id of a POST /call that placed the call but answered with an error (failNext `placedAnyway`). */
  placedAnyway?: string;
}

/** A credential as Vapi keeps it (created in its dashboard); its id is what `server.credentialId` names. */
export type FakeCredential = { type: 'bearer' | 'hmac'; secret: string };

/** One server message as it went out (every attempt of it). */
export interface SentMessage {
  type: string;
  vapiCallId: string | null;
  attempts: Array<{ status: number | null; headers: Record<string, string> }>;
  /** Why it was not sent at all: the call did not ask for this type, or a test dropped it. */
  skipped?: 'not-requested' | 'dropped';
  response?: unknown;
  /** What was sent, and where (for a redelivery: Vapi repeats a message now and then). */
  message: Vapi.ServerMessageMessage;
  server: Vapi.Server;
}

/** How the next POST /call fails (failNext). */
export interface PostFailure {
  status: number;
  message: string;
  retryAfter?: number;
  placedAnyway?: boolean;
}

export interface SendOptions {
  /** Lost on the way (Vapi's side or the network): never reaches the service. */
  drop?: boolean;
  /** Held this long before the first attempt. */
  delayMs?: number;
  /** Vapi's own fixed wait for this message (assistant-request: 7.5 s), once, whatever the server's settings. */
  answerWithinMs?: number;
}

/** How long Vapi waits for the answer to an assistant-request (fixed, whatever the server's timeoutSeconds). */
const ASSISTANT_REQUEST_WAIT_MS = 7500;
/** What a phone number PATCH may set to null to unset. */
const CLEARABLE = ['assistantId', 'squadId', 'workflowId'] as const;
/** Vapi's server-message timing scaled for tests: a backoff of 1 s waits `BACKOFF_SCALE` s. */
const BACKOFF_SCALE = 0.02;
/**
 * Vapi's 400 messages for a body we wrote: judged by the SDK's declaration (`sdkType`) and by Vapi's own OpenAPI
 * document (`documentSchema`), each catching what the other lets through; empty when both accept it.
 */
const refusals = (sdkType: string, documentSchema: VapiSchemaName, value: unknown): string[] => [
  ...new Set([...VapiSchema.get().validate(sdkType, value), ...VapiOpenApi.get().validate(documentSchema, value)]),
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stand-in for Vapi on 127.0.0.1, as strict as Vapi and no kinder (docs/providers.md, "The fake Vapi"):
 *
 * - REST: POST /call, GET /call/{id}, GET /phone-number, PATCH /phone-number/{id}, POST /chat, bearer-authenticated; every
 *   body is validated against the SDK's own declarations (VapiSchema) and, for POST /call and POST /chat, against
 *   Vapi's own OpenAPI document too (VapiOpenApi: CreateCallDTO, CreateChatDTO), and refused with Vapi's 400
 *   `{ statusCode, message: [...], error }` ("property X should not exist"); POST /call answers 429 with
 *   `Retry-After` when told to, and as Vapi does when the account's pool (`concurrencyLimit`) is full: 201 with
 *   the call it made, already ended (`call.start.error-subscription-concurrency-limit-reached`), and
 *   `subscriptionLimits.concurrencyBlocked: true`; that call's end-of-call-report can follow (`end`).
 * - Server messages: sent only as the call's `server` asks: to its URL (rebased onto the service under test),
 *   authenticated by its credential (Bearer or HMAC), retried only per its `backoffPlan`, and only the
 *   message types its `serverMessages` list; any message can be dropped or delayed.
 */
export class FakeVapi {
  readonly requests: RecordedRequest[] = [];
  readonly sent: SentMessage[] = [];
  /** Calls as GET /call/{id} reports them; a missing id is a 404. */
  readonly calls = new Map<string, Vapi.Call>();
  readonly phoneNumbers = new Map<string, Vapi.ListPhoneNumbersResponseItem>();
  readonly credentials = new Map<string, FakeCredential>();
  /** Calls ended through their control URL (`end-call`), in order. */
  readonly controlled: string[] = [];
  /** Calls whose end-of-call-report is lost on the way, whenever it is sent (Vapi ids). */
  readonly lostReports = new Set<string>();
  /** The account's concurrency pool; null: unlimited. */
  concurrencyLimit: number | null = null;
  /** The most calls live at once on this account so far. */
  peakLive = 0;
  /** Where the service under test listens: server URLs are rebased onto it (their path kept). */
  serviceUrl = '';
  private failures: PostFailure[] = [];
  private readonly chatFailures: Array<{ status: number; input: string }> = [];
  /** While set, POST /chat requests wait here unanswered (holdChats), as a slow model would keep them. */
  private heldChats: Array<() => void> | null = null;
  /** Chats created so far, so that `previousChatId` must name one of them (as on Vapi). */
  readonly chats = new Map<string, Vapi.Chat>();
  private server!: Server;
  url = '';

  static async start(): Promise<FakeVapi> {
    // Both checks are built before the first request (seconds of work on a busy machine), not during it, where the
    // time would count against the deadlines of the service under test.
    VapiSchema.get();
    VapiOpenApi.get();
    const fake = new FakeVapi();
    await fake.listen(0);
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  private async listen(port: number): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  /** Vapi goes away: connections to it are refused until `up()`. */
  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  /** Vapi is back, on the same address. */
  up(): Promise<void> {
    return this.listen(Number(new URL(this.url).port));
  }

  /**
   * The next POST /call requests answer with these statuses, in order (a 429 with its Retry-After, seconds); with
   * `placedAnyway`, Vapi places the call first and fails only its answer (what a 500 or a timeout may hide).
   */
  failNext(...failures: PostFailure[]): void {
    this.failures.push(...failures);
  }

  /**
   * A number the account owns (bought or imported in Vapi's dashboard); its id. `vapi`: bought from Vapi;
   * `twilio`: a Twilio number imported with its account SID (the one carrier Vapi makes warm transfers on).
   */
  addNumber(
    number: string,
    provider: 'vapi' | 'twilio' = 'vapi',
    dashboard: Pick<Vapi.VapiPhoneNumber, 'assistantId' | 'squadId' | 'workflowId'> = {},
  ): string {
    const id = randomUUID();
    const now = new Date().toISOString();
    const owned = { id, orgId: 'fake-org', number, createdAt: now, updatedAt: now, ...dashboard };
    this.phoneNumbers.set(
      id,
      provider === 'twilio'
        ? { ...owned, provider, twilioAccountSid: 'AC00000000000000000000000000000000' }
        : { ...owned, provider },
    );
    return id;
  }

  liveCalls(): number {
    return [...this.calls.values()].filter((c) => c.status !== 'ended').length;
  }

  /**
   * The next POST /chat requests whose `input` is `input` answer with these statuses, in order (Vapi's error
   * body): other chats (a summary an earlier test's conversation asks for late) pass untouched and use none.
   */
  failChatsWithInput(input: string, ...statuses: number[]): void {
    this.chatFailures.push(...statuses.map((status) => ({ status, input })));
  }

  /**
   * From now on POST /chat requests are left unanswered; the returned function answers them (in arrival order)
   * and ends the hold. A conversation held here stays in flight for as long as the test needs it to.
   */
  holdChats(): () => void {
    const held: Array<() => void> = [];
    this.heldChats = held;
    return () => {
      if (this.heldChats === held) this.heldChats = null;
      held.splice(0).forEach((answer) => answer());
    };
  }

  /** The POST /chat requests so far, their bodies as sent (validated as CreateChatDto when accepted). */
  chatRequests(): Array<Omit<RecordedRequest, 'body'> & { body: Vapi.CreateChatDto }> {
    return this.requests
      .filter((r) => r.method === 'POST' && r.path === '/chat')
      .map((r) => ({ ...r, body: r.body as unknown as Vapi.CreateChatDto }));
  }

  createCalls(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/call');
  }

  /** Waits for the POST /call whose assistant metadata names our call. */
  async createCallFor(callId: string, timeoutMs = 10_000): Promise<{ request: RecordedRequest; vapiCallId: string }> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const request = this.createCalls().find((r) => r.body?.assistant?.metadata?.callId === callId && r.accepted);
      if (request) return { request, vapiCallId: request.accepted! };
      await sleep(20);
    }
    throw new Error(`no accepted POST /call for ${callId}`);
  }

  /** Moves a call on: its status as GET reports it, and the status-update message. */
  async status(vapiCallId: string, status: 'ringing' | 'in-progress' | 'ended', options: SendOptions = {}) {
    this.update(vapiCallId, { status });
    return this.send(vapiCallId, { type: 'status-update', status, call: this.calls.get(vapiCallId)! }, options);
  }

  /**
   * Ends a call the way Vapi does: the Call (GET) ends with these figures, then `status-update: ended` and the
   * end-of-call-report are sent (each subject to the call's server settings and to `report` options).
   */
  async end(
    vapiCallId: string,
    figures: Partial<Vapi.Call> & { endedReason: Vapi.CallEndedReason },
    options: { report?: SendOptions; status?: SendOptions } = {},
  ): Promise<SentMessage> {
    const call = this.update(vapiCallId, { ...figures, status: 'ended' });
    await this.send(vapiCallId, { type: 'status-update', status: 'ended', call }, options.status);
    return this.report(vapiCallId, {}, options.report);
  }

  /**
   * Sends the ended call's end-of-call-report, its Call first completed with `later` (what Vapi adds once its
   * post-call steps are done: the analysis, the recording, the final cost): the report can come after the call
   * was read with GET, and again (a redelivery).
   */
  async report(vapiCallId: string, later: Partial<Vapi.Call> = {}, options: SendOptions = {}): Promise<SentMessage> {
    const call = this.update(vapiCallId, later);
    if (call.status !== 'ended' || !call.endedReason) throw new Error(`call ${vapiCallId} has not ended`);
    if (this.lostReports.has(vapiCallId)) options = { ...options, drop: true };
    const report: Vapi.ServerMessageEndOfCallReport = {
      type: 'end-of-call-report',
      endedReason: call.endedReason,
      call,
      startedAt: call.startedAt,
      endedAt: call.endedAt,
      cost: call.cost,
      artifact: call.artifact ?? { messages: [] },
      analysis: call.analysis ?? {},
      ...(call.destination ? { destination: call.destination } : {}),
    };
    return this.send(vapiCallId, report, options);
  }

  /**
   * An answering machine picks up while the first message plays, and Vapi does what the call's assistant asks:
   * with `voicemailDetection` on, it says `voicemailMessage` after the beep when there is one (else hangs up)
   * and ends with `voicemail`; with detection off, the machine is talked to like a person and hangs up itself.
   */
  async answerMachine(vapiCallId: string, analysis?: Vapi.Analysis): Promise<SentMessage> {
    await this.status(vapiCallId, 'ringing');
    await this.status(vapiCallId, 'in-progress');
    const assistant = this.calls.get(vapiCallId)!.assistant!;
    const detect = assistant.voicemailDetection !== undefined && assistant.voicemailDetection !== 'off';
    const said = [assistant.firstMessage, detect ? assistant.voicemailMessage : undefined].filter(
      (m): m is string => typeof m === 'string',
    );
    const messages = said.map((message, i) => ({
      role: 'bot',
      message,
      time: Date.now() + i,
      endTime: Date.now() + i + 500,
      secondsFromStart: i + 1,
    }));
    return this.end(vapiCallId, {
      endedReason: detect ? 'voicemail' : 'customer-ended-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:20.000Z',
      artifact: { messages },
      ...(analysis ? { analysis } : {}),
    });
  }

  /**
   * The assistant calls one of its function tools, as Vapi does: a `tool-calls` message (arguments as a JSON
   * string, the SDK's type) to the tool's own `server` (else the assistant's), and only when the assistant's
   * `serverMessages` lists `tool-calls` (otherwise Vapi sends nothing and the tool fails: this throws); the answer
   * must be a `ServerMessageResponseToolCalls` Vapi accepts, or this throws as Vapi would drop it.
   */
  async callTool(vapiCallId: string, name: string, args: Record<string, unknown>): Promise<Vapi.ToolCallResult[]> {
    const call = this.calls.get(vapiCallId)!;
    const tools = (call.assistant?.model?.tools ?? []) as Vapi.OpenAiModelToolsItem[];
    const tool = tools.find(
      (t): t is Vapi.OpenAiModelToolsItem.Function => t.type === 'function' && t.function?.name === name,
    );
    if (!tool) throw new Error(`the assistant has no function tool ${name}`);
    const message: Vapi.ServerMessageToolCalls = {
      type: 'tool-calls',
      call,
      toolCallList: [
        { id: `call_${randomUUID()}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
      ],
      toolWithToolCallList: [],
    };
    const server = tool.server ?? call.assistant?.server ?? {};
    if (!(call.assistant?.serverMessages ?? []).includes('tool-calls')) {
      this.record(server, message, vapiCallId, 'not-requested');
      throw new Error(`the call's serverMessages leave out tool-calls: Vapi never sends ${name} to the server`);
    }
    const sent = await this.deliver(server, message, vapiCallId);
    const errors = refusals('ServerMessageResponseToolCalls', 'ServerMessageResponseToolCalls', sent.response);
    if (errors.length || !sent.response) throw new Error(`Vapi refuses the tool-calls answer: ${errors.join('; ')}`);
    return (sent.response as Vapi.ServerMessageResponseToolCalls).results ?? [];
  }

  /**
   * The assistant uses its transferCall tool: Vapi forwards the call to the tool's first destination
   * (`status-update: forwarding`), and once the destination takes it the call ends `assistant-forwarded-call`
   * with that `destination`.
   */
  async transfer(vapiCallId: string): Promise<SentMessage> {
    const call = this.calls.get(vapiCallId)!;
    const tools = (call.assistant?.model?.tools ?? []) as Vapi.OpenAiModelToolsItem[];
    const tool = tools.find((t): t is Vapi.OpenAiModelToolsItem.TransferCall => t.type === 'transferCall');
    const destination = tool?.destinations?.[0];
    if (destination?.type !== 'number') throw new Error('the assistant has no transferCall tool with a number');
    this.update(vapiCallId, { status: 'forwarding' });
    await this.send(vapiCallId, { type: 'status-update', status: 'forwarding', call: this.calls.get(vapiCallId)! });
    // The caller hears the destination's message (if any) before being forwarded: the last line of the call.
    const said = typeof destination.message === 'string' ? [destination.message] : [];
    return this.end(vapiCallId, {
      endedReason: 'assistant-forwarded-call',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:30.000Z',
      destination: { ...destination },
      artifact: {
        messages: said.map((message) => ({
          role: 'bot',
          message,
          time: Date.now(),
          endTime: Date.now() + 500,
          secondsFromStart: 25,
        })),
      },
    });
  }

  /**
   * A customer calls one of the account's numbers: Vapi asks the number's server for an assistant
   * (assistant-request), validates what it gets back, and starts the call with it; the Vapi call id. As on Vapi:
   * a number that names an assistant, squad or workflow (set in the dashboard) is answered with that, and no
   * assistant-request is sent (`sent.skipped`); an answer later than Vapi's fixed 7.5 s is none, and the call
   * ends `assistant-request-failed`.
   */
  async ring(
    phoneNumberId: string,
    from: string,
  ): Promise<{ vapiCallId: string; response: unknown; sent: SentMessage }> {
    const number = this.phoneNumbers.get(phoneNumberId);
    if (!number) throw new Error(`the account has no number ${phoneNumberId}`);
    const now = new Date().toISOString();
    const call: Vapi.Call = {
      id: randomUUID(),
      orgId: 'fake-org',
      type: 'inboundPhoneCall',
      status: 'ringing',
      phoneNumberId,
      customer: { number: from },
      createdAt: now,
      updatedAt: now,
    };
    this.calls.set(call.id, call);
    const message: Vapi.ServerMessageAssistantRequest = {
      type: 'assistant-request',
      call,
      customer: { number: from },
      phoneNumber: { ...number } as Vapi.ServerMessageAssistantRequestPhoneNumber,
    };
    if (number.assistantId || number.squadId || number.workflowId) {
      this.update(call.id, {
        status: 'in-progress',
        ...(number.assistantId ? { assistantId: number.assistantId } : {}),
      });
      return {
        vapiCallId: call.id,
        response: undefined,
        sent: this.record(number.server ?? {}, message, call.id, 'not-requested'),
      };
    }
    const sent = await this.deliver(number.server ?? {}, message, call.id, {
      answerWithinMs: ASSISTANT_REQUEST_WAIT_MS,
    });
    const answer = sent.response as Vapi.ServerMessageResponseAssistantRequest | undefined;
    if (!answer) {
      this.update(call.id, { status: 'ended', endedReason: 'assistant-request-failed' });
    } else if (answer.assistant) {
      const errors = [
        ...VapiSchema.get().validate('CreateAssistantDto', answer.assistant),
        ...VapiOpenApi.get().validate('ServerMessageResponseAssistantRequest', answer),
      ];
      if (errors.length) throw new Error(`Vapi refuses the assistant: ${errors.join('; ')}`);
      this.update(call.id, { assistant: answer.assistant });
    } else {
      this.update(call.id, { status: 'ended', endedReason: 'assistant-request-returned-error' });
    }
    return { vapiCallId: call.id, response: answer, sent };
  }

  /** Sends one server message about a call as the call's assistant `server` settings ask. */
  send(vapiCallId: string, message: Vapi.ServerMessageMessage, options: SendOptions = {}): Promise<SentMessage> {
    const call = this.calls.get(vapiCallId);
    if (!call) throw new Error(`no call ${vapiCallId}`);
    const wanted = call.assistant?.serverMessages ?? [];
    const asked = (wanted as string[]).some((w) => w === message.type || w.startsWith(`${message.type}[`));
    const finalOnly = (wanted as string[]).includes('transcript[transcriptType="final"]');
    const partial = message.type === 'transcript' && message.transcriptType !== 'final' && finalOnly;
    const server = call.assistant?.server ?? {};
    if (!asked || partial) return Promise.resolve(this.record(server, message, vapiCallId, 'not-requested'));
    // Subscribed to the filtered form only, a final transcript goes out typed as that subscription.
    const named =
      message.type === 'transcript' && finalOnly && !(wanted as string[]).includes('transcript')
        ? { ...message, type: 'transcript[transcriptType="final"]' as const }
        : message;
    return this.deliver(server, named, vapiCallId, options);
  }

  /** The same message again, to the same server (a redelivery). */
  resend(sent: SentMessage): Promise<SentMessage> {
    return this.deliver(sent.server, sent.message, sent.vapiCallId ?? '');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Signs and posts `{ message }` to the server's URL; retries per its backoffPlan only. */
  private async deliver(
    server: Vapi.Server,
    message: Vapi.ServerMessageMessage,
    vapiCallId: string,
    options: SendOptions = {},
  ): Promise<SentMessage> {
    if (options.drop) return this.record(server, message, vapiCallId, 'dropped');
    const record = this.record(server, message, vapiCallId);
    if (options.delayMs) await sleep(options.delayMs);
    if (!server.url) throw new Error('the call has no server URL: Vapi would send its messages nowhere');
    const plan = server.backoffPlan;
    const retries = plan?.maxRetries ?? 0;
    const body = JSON.stringify({ message });
    for (let attempt = 0; ; attempt++) {
      const headers = this.authHeaders(server, body);
      const target = `${this.serviceUrl}${new URL(server.url).pathname}`;
      let status: number | null = null;
      try {
        const res = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
          signal: AbortSignal.timeout(options.answerWithinMs ?? (server.timeoutSeconds ?? 20) * 1000),
        });
        status = res.status;
        const text = await res.text();
        record.attempts.push({ status, headers });
        if (res.ok) {
          record.response = text ? JSON.parse(text) : null;
          return record;
        }
      } catch {
        record.attempts.push({ status: null, headers });
      }
      const excluded = ((plan?.excludedStatusCodes ?? []) as unknown[]).includes(status);
      if (attempt >= retries || excluded || options.answerWithinMs !== undefined) return record;
      const base = (plan?.baseDelaySeconds ?? 1) * 1000 * BACKOFF_SCALE;
      await sleep((plan?.type as unknown) === 'exponential' ? base * 2 ** attempt : base);
    }
  }

  /** The headers of the server's credential (or its own headers when it names none). */
  private authHeaders(server: Vapi.Server, body: string): Record<string, string> {
    const own = Object.fromEntries(Object.entries(server.headers ?? {}).map(([k, v]) => [k, String(v)]));
    const credential = server.credentialId ? this.credentials.get(server.credentialId) : undefined;
    if (server.credentialId && !credential) throw new Error(`Vapi has no credential ${server.credentialId}`);
    if (credential?.type === 'bearer') return { ...own, authorization: `Bearer ${credential.secret}` };
    if (credential?.type === 'hmac') {
      const timestamp = String(Date.now());
      const signature = createHmac('sha256', credential.secret).update(`${timestamp}.${body}`).digest('hex');
      return { ...own, 'x-signature': signature, 'x-timestamp': timestamp };
    }
    return own;
  }

  private record(
    server: Vapi.Server,
    message: Vapi.ServerMessageMessage,
    vapiCallId: string,
    skipped?: SentMessage['skipped'],
  ) {
    const sent: SentMessage = {
      type: String(message.type),
      vapiCallId,
      attempts: [],
      message,
      server,
      ...(skipped ? { skipped } : {}),
    };
    this.sent.push(sent);
    return sent;
  }

  /**
   * A live-call control message: validated as the SDK's ClientInboundMessageMessage; `end-call` on a live call
   * ends it the way Vapi does (status-update ended, then the end-of-call report), after answering the request.
   */
  private control(vapiCallId: string, record: RecordedRequest, send: (status: number, body: unknown) => void): void {
    const call = this.calls.get(vapiCallId);
    if (!call || call.status === 'ended')
      return send(404, { statusCode: 404, message: 'Not Found', error: 'Not Found' });
    const errors = VapiSchema.get().validate('ClientInboundMessageMessage', record.body);
    if (errors.length) return send(400, { statusCode: 400, message: errors, error: 'Bad Request' });
    send(200, { message: 'ok' });
    const message = record.body as unknown as Vapi.ClientInboundMessageMessage;
    if (message.type === 'end-call') {
      this.controlled.push(vapiCallId);
      void this.end(vapiCallId, { endedReason: 'manually-canceled', endedAt: new Date().toISOString() });
    }
  }

  /**
   * GET /call with Vapi's filters (ListCallsRequest): `id`, `assistantId`, `phoneNumberId`, `createdAt{Gt,Ge,Lt,Le}`
   * and `limit` (at most 1000, Vapi's page); an unknown parameter or a malformed date is Vapi's 400. Newest first.
   */
  private listCalls(
    query: URLSearchParams,
    send: (status: number, body: unknown) => void,
    refuse: (errors: string[]) => void,
  ): void {
    const known = [
      'id',
      'assistantId',
      'phoneNumberId',
      'limit',
      'createdAtGt',
      'createdAtGe',
      'createdAtLt',
      'createdAtLe',
    ];
    const unknown = [...query.keys()].filter((key) => !known.includes(key));
    if (unknown.length) return refuse(unknown.map((key) => `property ${key} should not exist`));
    const limit = Number(query.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 0 || limit > 1000) return refuse(['limit must not be greater than 1000']);
    const bounds: Array<[string, (at: number, bound: number) => boolean]> = [
      ['createdAtGt', (at, bound) => at > bound],
      ['createdAtGe', (at, bound) => at >= bound],
      ['createdAtLt', (at, bound) => at < bound],
      ['createdAtLe', (at, bound) => at <= bound],
    ];
    for (const [key] of bounds) {
      const value = query.get(key);
      if (value !== null && Number.isNaN(Date.parse(value)))
        return refuse([`${key} must be a valid ISO 8601 date string`]);
    }
    const matches = (call: Vapi.Call) =>
      (!query.has('id') || call.id === query.get('id')) &&
      (!query.has('assistantId') || call.assistantId === query.get('assistantId')) &&
      (!query.has('phoneNumberId') || call.phoneNumberId === query.get('phoneNumberId')) &&
      bounds.every(([key, holds]) => !query.has(key) || holds(Date.parse(call.createdAt), Date.parse(query.get(key)!)));
    const found = [...this.calls.values()].filter(matches).reverse().slice(0, limit);
    send(200, found);
  }

  private update(vapiCallId: string, changes: Partial<Vapi.Call>): Vapi.Call {
    const call = { ...this.calls.get(vapiCallId)!, ...changes, updatedAt: new Date().toISOString() };
    this.calls.set(vapiCallId, call);
    return call;
  }

  /**
   * POST /chat: the body validated as the SDK's CreateChatDto; `previousChatId` must name a chat of this account;
   * the assistant answers deterministically (`Vapi heard: "<input>"`, and the turn number of the thread).
   */
  private chat(
    record: RecordedRequest,
    send: (status: number, body: unknown) => void,
    refuse: (errors: string[]) => void,
  ): void {
    if (this.heldChats) {
      this.heldChats.push(() => this.chat(record, send, refuse));
      return;
    }
    const errors = refusals('CreateChatDto', 'CreateChatDTO', record.body);
    if (errors.length) return refuse(errors);
    const body = record.body as Vapi.CreateChatDto;
    const failing = this.chatFailures.findIndex((f) => f.input === body.input);
    if (failing >= 0) {
      const [{ status }] = this.chatFailures.splice(failing, 1);
      return send(status, { statusCode: status, message: 'Chat failed', error: 'Error' });
    }
    const previous = body.previousChatId ? this.chats.get(body.previousChatId) : undefined;
    if (body.previousChatId && !previous) {
      return send(404, { statusCode: 404, message: 'Previous chat not found', error: 'Not Found' });
    }
    const turn = (previous?.messages?.length ?? 0) / 2 + 1;
    const input = typeof body.input === 'string' ? body.input : JSON.stringify(body.input);
    const answer: Vapi.AssistantMessage = { role: 'assistant', content: `Vapi heard (turn ${turn}): "${input}"` };
    const toolCalls = chatToolCalls(body, input);
    if (toolCalls.length) answer.tool_calls = toolCalls;
    const now = new Date().toISOString();
    const chat: Vapi.Chat = {
      id: randomUUID(),
      orgId: 'fake-org',
      input: body.input,
      messages: [
        ...(previous?.messages ?? []),
        { role: 'user', content: input },
        { role: 'assistant', content: answer.content },
      ] as Vapi.ChatMessagesItem[],
      output: [answer],
      createdAt: now,
      updatedAt: now,
      // A fixed price per turn: 10 prompt and 5 completion tokens, $0.0001.
      costs: [{ type: 'model', model: {}, promptTokens: 10, completionTokens: 5, cost: 0.0001 }],
      cost: 0.0001,
    };
    if (body.previousChatId) chat.previousChatId = body.previousChatId;
    this.chats.set(chat.id, chat);
    record.accepted = chat.id;
    send(201, chat);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text ? JSON.parse(text) : null,
    };
    this.requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const refuse = (errors: string[]) => send(400, { statusCode: 400, message: errors, error: 'Bad Request' });
    const [path0] = record.path.split('?');
    if (record.method === 'POST' && path0.startsWith('/control/')) {
      // Vapi's control URLs take no API key unless the call's monitorPlan asks for one.
      return this.control(decodeURIComponent(path0.slice('/control/'.length)), record, send);
    }
    if (req.headers.authorization !== 'Bearer test-vapi-key') {
      return send(401, {
        statusCode: 401,
        message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
        error: 'Unauthorized',
      });
    }
    const [path, query = ''] = record.path.split('?');
    if (record.method === 'POST' && path === '/call') {
      const errors = refusals('CreateCallDto', 'CreateCallDTO', record.body);
      if (errors.length) return refuse(errors);
      const failure = this.failures.shift();
      if (failure && !failure.placedAnyway) {
        const limits: Vapi.SubscriptionLimits = { concurrencyBlocked: failure.status === 429 };
        const retry: Record<string, string> = failure.retryAfter ? { 'retry-after': String(failure.retryAfter) } : {};
        const body = { statusCode: failure.status, message: failure.message, error: 'Error' };
        return send(failure.status, failure.status === 429 ? { ...body, subscriptionLimits: limits } : body, retry);
      }
      const blocked = this.concurrencyLimit !== null && this.liveCalls() >= this.concurrencyLimit;
      const now = new Date().toISOString();
      const { phoneNumberId, customer, assistant, assistantOverrides } = record.body!;
      const id = randomUUID();
      if (blocked) {
        const call: Vapi.Call = {
          id,
          orgId: 'fake-org',
          type: 'outboundPhoneCall',
          status: 'ended',
          endedReason: 'call.start.error-subscription-concurrency-limit-reached',
          phoneNumberId,
          customer,
          assistant,
          createdAt: now,
          updatedAt: now,
          endedAt: now,
        };
        this.calls.set(id, call);
        record.blocked = id;
        const subscriptionLimits: Vapi.SubscriptionLimits = {
          concurrencyBlocked: true,
          concurrencyLimit: this.concurrencyLimit!,
          remainingConcurrentCalls: 0,
        };
        // Vapi puts the account's limits beside the call it answers with (the SDK's Call type leaves them out).
        return send(201, { ...call, subscriptionLimits });
      }
      const call: Vapi.Call = {
        id,
        orgId: 'fake-org',
        type: 'outboundPhoneCall',
        status: 'queued',
        phoneNumberId,
        customer,
        assistant,
        assistantOverrides,
        // Vapi's live-call control endpoint for this call (a control message ends or steers it).
        monitor: { controlUrl: `${this.url}/control/${id}` },
        createdAt: now,
        updatedAt: now,
      };
      this.calls.set(call.id, call);
      this.peakLive = Math.max(this.peakLive, this.liveCalls());
      if (failure) {
        record.placedAnyway = call.id;
        return send(failure.status, { statusCode: failure.status, message: failure.message, error: 'Error' });
      }
      record.accepted = call.id;
      return send(201, call);
    }
    if (record.method === 'POST' && path === '/chat') return this.chat(record, send, refuse);
    if (record.method === 'GET' && path === '/call') return this.listCalls(new URLSearchParams(query), send, refuse);
    const callMatch = /^\/call\/([^/]+)$/.exec(path);
    if (record.method === 'GET' && callMatch) {
      const call = this.calls.get(decodeURIComponent(callMatch[1]));
      return call ? send(200, call) : send(404, { statusCode: 404, message: 'Not Found', error: 'Not Found' });
    }
    if (record.method === 'GET' && path === '/phone-number') {
      const limit = Number(new URLSearchParams(query).get('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 0 || limit > 1000) return refuse(['limit must not be greater than 1000']);
      return send(200, [...this.phoneNumbers.values()].slice(0, limit));
    }
    const numberMatch = /^\/phone-number\/([^/]+)$/.exec(path);
    if (record.method === 'PATCH' && numberMatch) {
      const number = this.phoneNumbers.get(decodeURIComponent(numberMatch[1]));
      if (!number) return send(404, { statusCode: 404, message: 'Not Found', error: 'Not Found' });
      // Vapi takes null for these three (unset: assistant-request goes to the server), though its SDK types and
      // OpenAPI document list only strings: null is judged as absent, every other value by the SDK's type.
      const body = { ...(record.body as Record<string, unknown>) };
      const cleared = CLEARABLE.filter((key) => body[key] === null);
      for (const key of cleared) delete body[key];
      const errors = VapiSchema.get().validate('UpdatePhoneNumbersRequestBody', body);
      if (errors.length) return refuse(errors);
      const updated: Record<string, unknown> = { ...number, ...body, updatedAt: new Date().toISOString() };
      for (const key of cleared) delete updated[key];
      this.phoneNumbers.set(number.id, updated as unknown as Vapi.ListPhoneNumbersResponseItem);
      return send(200, updated);
    }
    send(404, { statusCode: 404, message: `Cannot ${record.method} ${path}`, error: 'Not Found' });
  }
}

/**
 * The tool calls of a chat turn: each function tool of the transient assistant whose name the input holds as a
 * whole word (any case) is called with `{ "text": <the input> }`, as the scenario simulator does, so a test can
 * expect a tool call over Vapi's chat API and see one.
 */
function chatToolCalls(body: Vapi.CreateChatDto, input: string): Vapi.ToolCall[] {
  const model = body.assistant?.model as { tools?: Array<{ type: string; function?: { name: string } }> } | undefined;
  return (model?.tools ?? [])
    .filter((tool) => tool.type === 'function' && tool.function)
    .filter((tool) => new RegExp(`(?<![\\p{L}\\p{N}])${tool.function!.name}(?![\\p{L}\\p{N}])`, 'iu').test(input))
    .map((tool) => ({
      id: randomUUID(),
      type: 'function',
      function: { name: tool.function!.name, arguments: JSON.stringify({ text: input }) },
    }));
}
