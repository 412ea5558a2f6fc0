import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError, parseConfig } from '../infra/config/app-config';
import { StartupError, prepareInfrastructure } from '../bootstrap/prepare-infrastructure';
import { createApp } from '../bootstrap/create-app';
import { closeOnSignals } from '../bootstrap/shutdown';
import { claimDemo, demoAdminToken, releaseDemo, runningDemo } from './demo-state';
import { SigningSecrets } from '../infra/secrets/signing-secrets';
import { startDemoWebhookReceiver } from './demo-webhook-receiver';
import { consoleSignInLines } from '../modules/console/console-link';
import { DEMO_CALL_TO, seedDemo } from './seed-demo';

/**
 * `npm run demo`: the whole product on one machine with nothing but Node. Without DATABASE_URL an embedded
 * PostgreSQL starts under .data/; without REDIS_URL the queues run on PostgreSQL; the simulators stand in for
 * the voice and messaging platforms. Seeds a demo organization and prints its key and ready-to-paste curls.
 * Webhooks may target http:// and local addresses here (WEBHOOK_ALLOW_INSECURE=true, demo only), and a
 * built-in receiver logs what it gets, so webhooks can be seen working without a tunnel.
 */
async function main(): Promise<void> {
  // The banner prints a full-access key and the admin token: the demo listens on this machine only unless
  // HOST says otherwise (README, "The demo").
  const env: NodeJS.ProcessEnv = {
    WEBHOOK_ALLOW_INSECURE: 'true',
    HOST: '127.0.0.1',
    ...process.env,
  };
  env.ADMIN_TOKEN ??= demoAdminToken();
  const config = parseConfig(env);
  const running = runningDemo();
  if (running) {
    console.error(
      `A demo is already running on this checkout's data: http://localhost:${running.port} (pid ${running.pid}).\n` +
        `Use that one, or stop it first (Ctrl-C in its terminal, or kill -INT ${running.pid}).`,
    );
    process.exit(1);
  }
  const receiverPort = Number(env.DEMO_RECEIVER_PORT ?? config.port + 1);
  // Before anything starts (the embedded database, Nest): a clash found after a minute of start-up is a poor welcome.
  await assertPortFree(config.host, config.port, 'PORT');
  await assertPortFree('127.0.0.1', receiverPort, 'DEMO_RECEIVER_PORT');
  claimDemo(config.port);
  let stopInfrastructure = async (): Promise<void> => undefined;
  let receiver: Server | undefined;
  let app: NestFastifyApplication | undefined;
  const stopAll = async () => {
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    await stopInfrastructure();
    releaseDemo();
  };
  try {
    const infra = await prepareInfrastructure(config);
    stopInfrastructure = infra.stop;
    app = await createApp({ config, database: infra.database, queue: infra.queue });
    const started = app;
    closeOnSignals(
      started,
      async () => {
        await stopAll();
        console.log('Demo stopped; its data stays in .data/ for the next run.');
      },
      config.shutdownTimeoutMs,
    );
    const seeded = await seedDemo(app);
    receiver = await startDemoWebhookReceiver(receiverPort, (url) => endpointSecrets(started, url));
    await app.listen({ port: config.port, host: config.host });
    console.log(banner(config.port, receiverPort, infra, seeded, config));
  } catch (error) {
    // The app's connections go before the database they point at.
    await app?.close().catch(() => undefined);
    await stopAll().catch(() => undefined);
    throw error;
  }
}

/** Exits with a clear message when `port` is taken on `host`, naming the variable that moves it. */
async function assertPortFree(host: string, port: number, variable: string): Promise<void> {
  const probe = createServer();
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    probe.once('error', resolve);
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
  if (!error) return;
  console.error(
    error.code === 'EADDRINUSE'
      ? `Demo not started: port ${port} is already in use on ${host}. Set ${variable} to a free port (e.g. ${variable}=${port + 10} npm run demo).`
      : `Demo not started: cannot listen on ${host}:${port} (${error.message}). Set HOST or ${variable}.`,
  );
  process.exit(1);
}

/** The endpoints on `url` with their signing secrets, opened (they are stored sealed). */
async function endpointSecrets(
  app: NestFastifyApplication,
  url: string,
): Promise<Array<{ id: string; secret: string }>> {
  const rows: Array<{ id: string; secret: string }> = await app
    .get(DataSource)
    .query('SELECT id, secret FROM webhook_endpoints WHERE url = $1', [url]);
  const secrets = app.get(SigningSecrets);
  return rows.map(({ id, secret }) => ({ id, secret: secrets.open(secret) }));
}

function banner(
  port: number,
  receiverPort: number,
  infra: { database: { main: string }; queue: { kind: string } },
  seeded: { apiKey: string; phoneNumber: string; messagingAccountId: string },
  config: Pick<AppConfig, 'env' | 'adminToken'>,
): string {
  const base = `http://localhost:${port}`;
  const key = `-H 'X-API-Key: ${seeded.apiKey}'`;
  return [
    '',
    'Voice Calling API demo is running.',
    `  API:          ${base}/api/v1   (Swagger UI: ${base}/docs)`,
    `  Database:     ${infra.database.main.replace(/:[^:@/]+@/, ':***@')}`,
    `  Queues:       ${infra.queue.kind}`,
    `  API key:      ${seeded.apiKey}   (kept in .data/demo-api-key, reused on restart)`,
    `  Phone number: ${seeded.phoneNumber}`,
    `  Chat:         test messaging account ${seeded.messagingAccountId}, chat agent on (docs/quickstart.md, section 8)`,
    `  Admin token:  ${config.adminToken}`,
    ...consoleSignInLines(base, config),
    '',
    'Try it:',
    `  curl -s ${key} ${base}/api/v1/organization`,
    '',
    `1. Send webhooks to the built-in receiver (http://127.0.0.1:${receiverPort}); it logs each delivery here.`,
    '   (The demo lets webhooks target http:// and local addresses; production allows only public https.)',
    `  curl -s -X POST ${key} -H 'Content-Type: application/json' \\`,
    `    -d '{"url": "http://127.0.0.1:${receiverPort}/hooks", "events": ["call.started", "call.ended", "call.failed"]}' \\`,
    `    ${base}/api/v1/webhooks`,
    '',
    '2. Place a simulated call and watch its webhooks arrive below',
    '   (numbers ending 0-6 answer, 7 voicemail, 8 no answer, 9 error):',
    `  curl -s -X POST ${key} -H 'Content-Type: application/json' \\`,
    `    -d '{"to": "${DEMO_CALL_TO}", "from": "${seeded.phoneNumber}", "firstMessage": "Hi, this is a demo call"}' \\`,
    `    ${base}/api/v1/calls`,
    '',
    'A guided tour: docs/quickstart.md. Stop with Ctrl-C.',
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError || error instanceof StartupError
      ? error.message
      : (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE'
        ? `a port is already in use (${(error as Error).message}); set PORT (and DEMO_RECEIVER_PORT) to free ones`
        : error instanceof Error
          ? error.message
          : String(error);
  console.error(`Demo failed: ${message}`);
  process.exit(1);
});
