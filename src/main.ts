import { ConfigError, parseConfig } from './infra/config/app-config';
import { StartupError, prepareInfrastructure } from './bootstrap/prepare-infrastructure';
import { createApp } from './bootstrap/create-app';
import { closeOnSignals } from './bootstrap/shutdown';
import { startIdleHeapRelease } from './infra/memory/idle-heap-release';

/** `node dist/main.js`: validate configuration, prepare the database and queues, then run this process's roles. */
async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const infra = await prepareInfrastructure(config);
  const app = await createApp({ config, database: infra.database, queue: infra.queue });
  // A process that serves or works grows its heap under its load and, once idle, would keep it (infra/memory); a
  // scheduler-only process carries no load.
  const heapRelease = config.roles.has('api') || config.roles.has('worker') ? startIdleHeapRelease() : undefined;
  const stop = () => {
    heapRelease?.stop();
    return infra.stop();
  };
  closeOnSignals(app, stop, config.shutdownTimeoutMs);
  if (config.roles.has('api')) {
    await app.listen({ port: config.port, host: config.host });
  }
  // A supervisor that forked this process with an IPC channel (a process manager's "wait ready") learns that it
  // serves: every role has started. Without a channel, process.send is undefined and nothing is sent.
  process.send?.('ready');
}

main().catch((error) => {
  // Configuration and reachability problems are one clear line, not a stack trace.
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(`Start-up failed: ${error.message}`);
  } else {
    console.error('Start-up failed:', error);
  }
  process.exit(1);
});
