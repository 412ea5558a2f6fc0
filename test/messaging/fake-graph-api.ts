import type {
  CreateMessagePayload,
  ListTemplatesPayload,
  MediaGetURLPayload,
  WhatsappError,
} from '@great-detail/whatsapp' with { 'resolution-mode': 'import' };
import { randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { hubSignature } from '../../src/modules/platforms/messaging/whatsapp/whatsapp-signature';
import type { GraphSendBody } from '../../src/modules/platforms/messaging/whatsapp/whatsapp-graph.types';
import { MetaSchema } from './meta-schema';
import { statusChange, webhookOf } from './whatsapp-webhooks';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** What our adapter sent (sends: typed as the Cloud API's send body). */
  body: GraphSendBody;
  /** When the whole request had arrived (ms since the epoch). */
  receivedAt: number;
}

type MetaError = WhatsappError & { error_subcode?: number; error_data?: WhatsappError['error_data'] };

/** What captured fixtures hold in place of our message id, which differs on every run. */
const STABLE_MESSAGE_ID = '00000000-0000-7000-8000-000000000000';

/**
 * A send carries our message id as `biz_opaque_callback_data`: checks it names `messageId`, and returns the body
 * with a stable id in its place, to compare with a committed fixture.
 */
export function withStableMessageId(body: GraphSendBody, messageId: string): GraphSendBody {
  expect(body.biz_opaque_callback_data).toBe(messageId);
  return { ...body, biz_opaque_callback_data: STABLE_MESSAGE_ID };
}

/** Graph versions Meta serves on 2026-11-25 (v21.0 until 2027-01-21; v20.0 ended 2026-09-24). */
const SERVED_VERSIONS = new Set(['v21.0', 'v22.0', 'v23.0', 'v24.0', 'v25.0', 'v26.0']);

/** Meta's titles and HTTP statuses of the errors the fake can give (Cloud API error-code reference). */
const META_ERRORS: Record<number, { status: number; type: string; message: string }> = {
  100: { status: 400, type: 'OAuthException', message: 'Invalid parameter' },
  190: { status: 401, type: 'OAuthException', message: 'Invalid OAuth access token - Cannot parse access token' },
  130429: { status: 400, type: 'OAuthException', message: 'Rate limit hit' },
  131026: { status: 400, type: 'OAuthException', message: 'Message undeliverable' },
  131047: { status: 400, type: 'OAuthException', message: 'Re-engagement message' },
  131049: {
    status: 400,
    type: 'OAuthException',
    message: 'This message was not delivered to maintain healthy ecosystem engagement.',
  },
  131056: { status: 400, type: 'OAuthException', message: '(Business Account, Consumer Account) pair rate limit hit' },
  132000: {
    status: 400,
    type: 'OAuthException',
    message: 'Number of parameters does not match the expected number of params',
  },
  132001: { status: 404, type: 'OAuthException', message: 'Template name does not exist in the translation' },
  132015: { status: 400, type: 'OAuthException', message: 'Template is Paused' },
  132016: { status: 400, type: 'OAuthException', message: 'Template is Disabled' },
  2500: { status: 400, type: 'OAuthException', message: 'Unknown path components' },
  1: { status: 400, type: 'OAuthException', message: 'An unknown error occurred' },
  2: { status: 503, type: 'OAuthException', message: 'Service temporarily unavailable' },
  4: { status: 400, type: 'OAuthException', message: 'Application request limit reached' },
  80007: { status: 400, type: 'OAuthException', message: 'Rate limit issues' },
  131000: { status: 500, type: 'OAuthException', message: 'Something went wrong' },
  131016: { status: 500, type: 'OAuthException', message: 'Service unavailable' },
  131031: { status: 403, type: 'OAuthException', message: 'Business Account locked' },
  131042: { status: 400, type: 'OAuthException', message: 'Business eligibility payment issue' },
  131048: { status: 400, type: 'OAuthException', message: 'Spam rate limit hit' },
  131062: { status: 400, type: 'OAuthException', message: 'Message undeliverable to this recipient' },
  133010: { status: 400, type: 'OAuthException', message: 'Phone number Not Registered' },
};

/** Codes Meta reports after accepting a send, by a `statuses` webhook with `status: failed`. */
const REPORTED_LATER = new Set([131047, 131026, 131049]);

export interface FakeTemplate {
  name: string;
  language: string;
  status: string;
  body: string;
  header?: { format: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT'; text?: string };
}

interface Grant {
  phoneNumberId: string;
  wabaId: string;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]));
/**
 * A local stand-in for Meta's Graph API (WhatsApp Cloud API) as strict as the real one, in its wire format and
 * typed by the same SDK as the adapter: it checks the version path, the bearer token (190) and that the token may
 * use the phone-number id or business account (100, subcode 33); validates every send body against Meta's own
 * published `Message` schema (test/messaging/meta-schema.ts; 100 with the schema's complaints), then the text
 * length and templates against its own registry (132001 unknown name or language, 132000 parameter count, 132015
 * paused, 132016 disabled); answers rate limits (130429) when told; serves media and paginated template lists;
 * and reports delivery as Meta does, through signed `statuses` webhooks to the app — a failure such as 131047
 * arrives later as `status: failed`, never in the send's answer. Every webhook it posts, the tests' own included,
 * must be one Meta sends (`WebhookPayload` and Meta's examples).
 */
export class FakeGraphApi {
  readonly requests: RecordedRequest[] = [];
  url = '';
  private server?: Server;
  private counter = 0;
  private readonly grants = new Map<string, Grant[]>();
  private readonly templates = new Map<string, FakeTemplate[]>();
  private readonly media = new Map<string, { bytes: Buffer; mimeType: string; endless?: boolean }>();
  private readonly downloadsClosed = new Map<string, Promise<void>>();
  private readonly onDownloadClosed = new Map<string, () => void>();
  private readonly queued: number[] = [];
  private readonly lateFailures = new Map<string, number>();
  private readonly earlyReports = new Set<string>();
  private webhook?: { url: string; appSecret: string };
  private readonly edits: Array<(body: Record<string, unknown>) => unknown> = [];
  private outage = false;
  private unanswered = 0;
  /**
   * Every accepted send gets its `sent` status webhook shortly after the answer, as Meta sends it (off by default:
   * most tests look at a message while it is `accepted`).
   */
  reportSent = false;
  /** Template list page size (Meta's default is 25; tests make it small to walk pages). */
  templatePageSize = 25;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          return this.error(res, 100, 'Malformed JSON');
        }
        this.requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: body as GraphSendBody,
          receivedAt: Date.now(),
        });
        this.route(req, res, body).catch((e: Error) => this.error(res, 1, e.message, 500));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The token may send from this phone-number id and manage this business account's templates. */
  grant(token: string, phoneNumberId: string, wabaId: string): void {
    this.grants.set(token, [...(this.grants.get(token) ?? []), { phoneNumberId, wabaId }]);
  }

  /** Where status webhooks go, signed with the app secret as Meta signs them. */
  deliverWebhooksTo(url: string, appSecret: string): void {
    this.webhook = { url, appSecret };
  }

  addTemplate(wabaId: string, template: FakeTemplate): void {
    this.templates.set(wabaId, [
      ...(this.templates.get(wabaId) ?? []).filter((t) => t.name !== template.name || t.language !== template.language),
      template,
    ]);
  }

  /**
   * The origin media locations are given under (unset: this fake's own, as the Graph host): another name for this
   * server, so a test can show what a host that is not Meta's gets.
   */
  mediaOrigin?: string;

  addMedia(id: string, bytes: Buffer, mimeType: string): void {
    this.media.set(id, { bytes, mimeType });
  }

  /**
   * Media whose download sends `bytes`, without a size, and then never ends (a large file on a slow link), until
   * the downloader closes the connection: `downloadClosed(id)` resolves then.
   */
  addEndlessMedia(id: string, bytes: Buffer, mimeType: string): void {
    this.media.set(id, { bytes, mimeType, endless: true });
    this.downloadsClosed.set(id, new Promise((resolve) => this.onDownloadClosed.set(id, resolve)));
  }

  downloadClosed(id: string): Promise<void> {
    return this.downloadsClosed.get(id)!;
  }

  /**
   * The next send (after validation) is refused with this Meta error code, in Meta's shape. Meta reports 131047,
   * 131026 and 131049 by status webhook (failLater); answering a send with one takes `answerSynchronously`.
   */
  failNext(code: number, times = 1, options: { answerSynchronously?: boolean } = {}): void {
    if (REPORTED_LATER.has(code) && !options.answerSynchronously) {
      throw new Error(`FakeGraphApi: Meta reports ${code} in a status webhook; use failLater`);
    }
    for (let i = 0; i < times; i += 1) this.queued.push(code);
  }

  /**
   * The next send is judged as if our adapter had written `edit(body)` instead of what it wrote: how a refusal
   * test puts a body Meta's schema refuses through the whole path (our API, the adapter, this fake and back).
   */
  alterNextSend(edit: (body: Record<string, unknown>) => unknown): void {
    this.edits.push(edit);
  }

  /** The next request is answered like an outage: HTTP 500 with no Graph error body. */
  outageNext(): void {
    this.outage = true;
  }

  /**
   * The next `times` sends are taken (given an id) but never answered, as when the connection is lost after Meta
   * took the message: once our side gives up on the request, Meta's `sent` status webhook comes, echoing the send's
   * `biz_opaque_callback_data`.
   */
  leaveUnanswered(times = 1): void {
    this.unanswered += times;
  }

  /** The sends that carried this `biz_opaque_callback_data` (our message id). */
  sendsOf(messageId: string): RecordedRequest[] {
    return this.sends().filter(
      (r) => (r.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === messageId,
    );
  }

  /** Sends to this number are accepted, then failed with this code by a later `statuses` webhook (as Meta does). */
  failLater(toDigits: string, code: number): void {
    this.lateFailures.set(toDigits, code);
  }

  /** Sends to this number get their `sent` status webhook delivered (and acknowledged) before the send's answer. */
  reportBeforeAnswering(toDigits: string): void {
    this.earlyReports.add(toDigits);
  }

  lastRequest(): RecordedRequest {
    return this.requests[this.requests.length - 1];
  }

  sends(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && /\/messages$/.test(r.url));
  }

  /**
   * Posts a signed webhook to the app and returns its HTTP status. It must be one Meta sends (judged by Meta's
   * schema and examples); one of Meta's own published examples (`published`) is taken as it is.
   */
  async sendWebhook(payload: unknown, options: { published?: boolean } = {}): Promise<number> {
    if (!this.webhook) throw new Error('FakeGraphApi: deliverWebhooksTo first');
    const errors = options.published ? [] : MetaSchema.get().webhookErrors(payload);
    if (errors.length) throw new Error(`FakeGraphApi: Meta sends no such webhook: ${errors.join('; ')}`);
    const raw = JSON.stringify(payload);
    const res = await fetch(this.webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, this.webhook.appSecret) },
      body: raw,
    });
    await res.arrayBuffer();
    return res.status;
  }

  private async route(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.outage) {
      this.outage = false;
      res.writeHead(500, { 'content-type': 'text/html' }).end('<html>Internal Server Error</html>');
      return;
    }
    const url = new URL(req.url ?? '/', this.url);
    const file = url.pathname.match(/^\/media-files\/([^/]+)$/);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const grants = token ? this.grants.get(token) : undefined;
    if (!grants) return this.error(res, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (file) return this.mediaFile(res, file[1]);
    const [, version, node, edge] = url.pathname.match(/^\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/) ?? [];
    if (!version || !SERVED_VERSIONS.has(version))
      return this.error(res, 2500, `Unknown path components: ${url.pathname}`);
    if (req.method === 'POST' && edge === 'messages') {
      const grant = grants.find((g) => g.phoneNumberId === node);
      if (!grant) return this.unknownObject(res, node);
      return this.send(res, grant, body);
    }
    if (req.method === 'GET' && edge === 'message_templates') {
      if (!grants.some((g) => g.wabaId === node)) return this.unknownObject(res, node);
      return this.listTemplates(res, node, url);
    }
    if (req.method === 'GET' && !edge && this.media.has(node)) return this.mediaUrl(res, node);
    return this.unknownObject(res, node);
  }

  private async send(res: ServerResponse, grant: Grant, body: unknown): Promise<void> {
    const edit = this.edits.shift();
    const sent = (body ?? {}) as Record<string, unknown>;
    const b = (edit ? edit(structuredClone(sent)) : sent) as Record<string, unknown>;
    const refused = MetaSchema.get().sendErrors(b);
    if (refused.length) return this.error(res, 100, refused.join('; '));
    if (b.messaging_product !== 'whatsapp') return this.error(res, 100, 'The parameter messaging_product is required.');
    // Meta's schema has made sure of exactly one of `to` and `recipient`.
    const to = String(b.to ?? b.recipient);
    if (typeof b.to === 'string' && !/^\d{6,15}$/.test(b.to)) return this.error(res, 100, 'Invalid parameter: to');
    const invalid = this.invalidContent(grant, b);
    if (invalid) return this.error(res, invalid.code, invalid.details);
    const queued = this.queued.shift();
    if (queued !== undefined) return this.error(res, queued, META_ERRORS[queued]?.message ?? 'Error');
    this.counter += 1;
    const id = `wamid.HBgL${String(this.counter).padStart(6, '0')}${randomBytes(4).toString('hex')}`;
    const callbackData = typeof b.biz_opaque_callback_data === 'string' ? b.biz_opaque_callback_data : undefined;
    const sentStatus = () =>
      webhookOf(grant.wabaId, statusChange(grant.phoneNumberId, id, 'sent', to, undefined, callbackData));
    if (this.earlyReports.has(to)) {
      const status = await this.sendWebhook(sentStatus());
      if (status !== 200) throw new Error(`early status webhook answered ${status}`);
    }
    if (this.unanswered > 0) {
      this.unanswered -= 1;
      res.on('close', () => void this.sendWebhook(sentStatus()));
      return;
    }
    const answer: Omit<CreateMessagePayload, 'error'> = {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id, message_status: 'accepted' }],
    };
    this.json(res, 200, answer);
    if (this.reportSent) setTimeout(() => void this.sendWebhook(sentStatus()), 50);
    const late = this.lateFailures.get(to);
    if (late !== undefined) {
      // After the answer, as Meta does: the failure is only ever reported by a status webhook.
      setTimeout(() => {
        const meta = META_ERRORS[late];
        const errors = [
          {
            code: late,
            title: meta?.message ?? 'Error',
            message: meta?.message ?? 'Error',
            error_data: { details: meta?.message ?? '' },
          },
        ];
        void this.sendWebhook(
          webhookOf(grant.wabaId, statusChange(grant.phoneNumberId, id, 'failed', to, errors, callbackData)),
        );
      }, 50);
    }
  }

  /** Meta's checks of the message object itself. */
  private invalidContent(grant: Grant, b: Record<string, unknown>): { code: number; details: string } | undefined {
    if (b.type === 'text') {
      const text = b.text as { body?: unknown } | undefined;
      if (typeof text?.body !== 'string' || !text.body.length || text.body.length > 4096) {
        return { code: 100, details: 'text.body must be 1 to 4096 characters' };
      }
      return undefined;
    }
    // The media object (exactly one of id and link) and every other kind are judged by Meta's schema alone.
    if (b.type !== 'template') return undefined;
    const t = b.template as {
      name?: string;
      language?: { code?: string };
      components?: Array<{ type: string; parameters?: unknown[] }>;
    };
    const known = (this.templates.get(grant.wabaId) ?? []).filter((x) => x.name === t?.name);
    const template = known.find((x) => x.language === t?.language?.code);
    if (!template) {
      return { code: 132001, details: `template name (${t?.name}) does not exist in ${t?.language?.code}` };
    }
    if (template.status === 'PAUSED') return { code: 132015, details: 'Template is paused' };
    if (template.status === 'DISABLED') return { code: 132016, details: 'Template is disabled' };
    const given = (type: string) => t.components?.find((c) => c.type === type)?.parameters?.length ?? 0;
    const expected = placeholders(template.body).size;
    if (given('body') !== expected) {
      return {
        code: 132000,
        details: `body: number of localizable_params (${given('body')}) does not match the expected number of params (${expected})`,
      };
    }
    const header = template.header;
    const headerWanted = header ? (header.format === 'TEXT' ? placeholders(header.text ?? '').size : 1) : 0;
    if (given('header') !== headerWanted) {
      return {
        code: 132000,
        details: `header: number of params (${given('header')}) does not match the expected number (${headerWanted})`,
      };
    }
    return undefined;
  }

  private listTemplates(res: ServerResponse, wabaId: string, url: URL): void {
    const all = this.templates.get(wabaId) ?? [];
    const limit = Math.min(Number(url.searchParams.get('limit') ?? this.templatePageSize), this.templatePageSize);
    const from = Number(url.searchParams.get('after') ?? 0);
    const page = all.slice(from, from + limit);
    const more = from + limit < all.length;
    const next = new URL(url);
    next.searchParams.set('after', String(from + limit));
    const answer = {
      data: page.map((t, i) => ({
        id: `${wabaId}${from + i}`,
        name: t.name,
        language: t.language,
        status: t.status,
        category: 'UTILITY',
        parameter_format: [...placeholders(t.body)].every((p) => /^\d+$/.test(p)) ? 'POSITIONAL' : 'NAMED',
        components: [
          ...(t.header
            ? [{ type: 'HEADER', format: t.header.format, ...(t.header.text ? { text: t.header.text } : {}) }]
            : []),
          { type: 'BODY', text: t.body },
        ],
      })),
      paging: {
        cursors: { before: String(from), after: String(from + limit) },
        ...(more ? { next: next.toString() } : {}),
      },
    } as unknown as ListTemplatesPayload;
    this.json(res, 200, answer);
  }

  private mediaUrl(res: ServerResponse, id: string): void {
    const file = this.media.get(id)!;
    const answer: MediaGetURLPayload = {
      messaging_product: 'whatsapp',
      url: `${this.mediaOrigin ?? this.url}/media-files/${id}`,
      mime_type: file.mimeType,
      sha256: 'f'.repeat(64),
      file_size: file.bytes.length,
      id,
    };
    this.json(res, 200, answer);
  }

  private mediaFile(res: ServerResponse, id: string): void {
    const file = this.media.get(id);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (file.endless) {
      res.on('close', () => this.onDownloadClosed.get(id)?.());
      res.writeHead(200, { 'content-type': file.mimeType });
      res.write(file.bytes);
      return;
    }
    res.writeHead(200, { 'content-type': file.mimeType, 'content-length': String(file.bytes.length) });
    res.end(file.bytes);
  }

  private unknownObject(res: ServerResponse, id: string | undefined): void {
    this.error(
      res,
      100,
      `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      400,
      33,
    );
  }

  private error(res: ServerResponse, code: number, details: string, status?: number, subcode?: number): void {
    const meta = META_ERRORS[code];
    const error: MetaError = {
      message: `(#${code}) ${meta?.message ?? details}`,
      type: meta?.type ?? 'OAuthException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      error_data: { messaging_product: 'whatsapp', details },
      fbtrace_id: `A${randomBytes(8).toString('hex')}`,
    };
    this.json(res, status ?? meta?.status ?? 400, { error });
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
