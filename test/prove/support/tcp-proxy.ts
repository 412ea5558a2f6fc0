import { AddressInfo, Server, Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL here), so a test can make it unreachable for the application
 * without touching the shared server: `cut()` drops every open connection and stops listening (new connections
 * are refused), `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  /** The given URL with its host and port replaced by the proxy's. */
  url(through: string): string {
    const url = new URL(through);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
    this.server = undefined;
  }

  async restore(): Promise<void> {
    await this.listen(this.port);
  }

  stop(): Promise<void> {
    return this.cut();
  }

  private async listen(port: number): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }
}
