import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';

/**
 * Graceful shutdown on SIGTERM/SIGINT: app.close() stops accepting connections, lets in-flight requests finish
 * (Fastify's close), then the shutdown hooks close the BullMQ workers (each waits for its active jobs), the
 * queues, Redis clients, the metrics server and the database pool; finally the embedded PostgreSQL (demo mode)
 * stops. The process then exits 0, or 1 when something failed to close. A second signal forces exit at once, and
 * so does `timeoutMs` (SHUTDOWN_TIMEOUT_MS) passing: a store that cannot be reached (Redis down) would otherwise
 * keep its clients reconnecting and the close waiting for ever, until the platform's SIGKILL.
 */
export function closeOnSignals(
  app: INestApplication,
  stopInfrastructure: () => Promise<void>,
  timeoutMs: number,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      console.error(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    closing = true;
    console.log(`${signal} received: finishing in-flight requests and jobs, then exiting`);
    // Unref'd: it bounds the close, it never holds a process that has nothing else left to do.
    setTimeout(() => {
      console.error(`Shutdown did not finish within ${timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    // Server.close() drops the connections idle at that moment only; a keep-alive connection whose request was in
    // flight would then linger until its keep-alive timeout. Dropping idle ones as they appear closes each right
    // after its last response.
    const server = app.getHttpServer() as Server;
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    reaper.unref();
    app
      .close()
      .finally(() => clearInterval(reaper))
      .then(() => stopInfrastructure())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('Shutdown failed:', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
