import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from './metrics';

/**
 * Serves `GET /metrics` on METRICS_PORT, apart from the API port: every process has one whatever its roles (a
 * worker-only process has no API listener, yet it is where job, dispatch, webhook and ledger metrics happen),
 * and the port is protected by not being published beyond the scraper's network (see docs/operations.md).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The bound port (useful with METRICS_PORT=0), or undefined when no metrics server runs. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      this.metrics.exposition().then(
        (body) => response.writeHead(200, { 'content-type': this.metrics.contentType }).end(body),
        (error: Error) => {
          this.logger.warn({ err: error.message }, 'Metrics collection failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics collection failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, this.config.host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics on http://${this.config.host}:${this.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    // A scrape is short; dropping idle keep-alive sockets lets close() return promptly.
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
