/**
 * A worker-role instance in its own OS process, so a test can SIGKILL it mid-delivery: nothing graceful
 * (no worker.close(), no lock release) runs, exactly as when a machine dies.
 */
import { createApp } from '../../../src/bootstrap/create-app';
import { prepareInfrastructure } from '../../../src/bootstrap/prepare-infrastructure';
import { parseConfig } from '../../../src/infra/config/app-config';

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const infra = await prepareInfrastructure(config);
  await createApp({ config, database: infra.database, queue: infra.queue });
  process.send?.('ready');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
