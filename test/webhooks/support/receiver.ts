import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  rawBody: string;
  at: number;
}

/**
 * How the receiver answers a request: a status, `hold` to keep the request open until the test ends, or a status
 * sent only after a while (a slow receiver).
 */
export type Answer = number | 'hold' | { status: number; afterMs: number };

/**
 * A real local HTTP receiver on 127.0.0.1. Each path (one per endpoint under test) has its own script of
 * answers; requests are recorded with their raw body, exactly as a receiver verifying signatures would see them.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly defaults = new Map<string, Answer>();
  private readonly open = new Map<string, number>();
  /** When each exchange ended (answered, or given up by the client), in order. */
  readonly ended: Array<{ path: string; at: number }> = [];
  /** The most requests each path ever had open at once (a receiver's view of per-endpoint concurrency). */
  readonly maxOpen = new Map<string, number>();
  private readonly held: ServerResponse[] = [];
  private readonly waiters: Array<() => void> = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers for the next requests to `path`, in order; after the script runs out, 200. */
  script(path: string, answers: Answer[]): void {
    this.scripts.set(path, [...answers]);
  }

  /** How `path` answers once its script has run out (200 unless set). */
  answerAlways(path: string, answer: Answer): void {
    this.defaults.set(path, answer);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `predicate` holds over the recorded requests. */
  async waitFor(predicate: (all: Received[]) => boolean, timeoutMs = 15000, what = 'deliveries'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; got ${this.received.length} requests`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const opened = req.url ?? '/';
    const now = (this.open.get(opened) ?? 0) + 1;
    this.open.set(opened, now);
    this.maxOpen.set(opened, Math.max(now, this.maxOpen.get(opened) ?? 0));
    // Counted until the exchange ends either way: answered, or given up by the client (a timeout).
    res.on('close', () => {
      this.open.set(opened, (this.open.get(opened) ?? 1) - 1);
      this.ended.push({ path: opened, at: Date.now() });
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.received.push({
        path,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      this.waiters.splice(0).forEach((wake) => wake());
      const answer = this.scripts.get(path)?.shift() ?? this.defaults.get(path) ?? 200;
      if (answer === 'hold') {
        this.held.push(res);
        return;
      }
      if (typeof answer === 'object') {
        this.held.push(res);
        setTimeout(() => this.answer(res, answer.status), answer.afterMs).unref();
        return;
      }
      this.answer(res, answer);
    });
  }

  private answer(res: ServerResponse, answer: number): void {
    if (res.destroyed) return;
    // A redirect points at a path of this receiver, so a client that followed it would be seen here.
    const location = answer >= 300 && answer < 400 ? { location: `${this.url}/elsewhere` } : {};
    res.writeHead(answer, { 'content-type': 'text/plain', ...location });
    res.end(answer >= 300 && answer < 400 ? '' : `status ${answer}`);
  }
}
