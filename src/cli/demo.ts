import { ConfigError, parseConfig } from '../infra/config/app-config';
import { StartupError, prepareInfrastructure } from '../bootstrap/prepare-infrastructure';
import { createApp } from '../bootstrap/create-app';
import { closeOnSignals } from '../bootstrap/shutdown';
import { seedDemo } from './seed-demo';

/**
 * `npm run demo`: the whole product on one machine with nothing but Node. Without DATABASE_URL an embedded
 * PostgreSQL starts under .data/; without REDIS_URL the queues run on PostgreSQL; the simulators stand in for
 * the voice and messaging platforms. Seeds a demo organization and prints a key and a ready-to-paste curl.
 */
async function main(): Promise<void> {
  const env = { ADMIN_TOKEN: 'demo-admin-token', ...process.env };
  const config = parseConfig(env);
  const infra = await prepareInfrastructure(config);
  const app = await createApp({ config, databaseUrl: infra.databaseUrl, queue: infra.queue });
  closeOnSignals(app, infra.stop);
  const seeded = await seedDemo(app);
  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${config.port}`;
  const lines = [
    '',
    'Voice Calling API demo is running.',
    `  API:          ${base}/api/v1   (Swagger UI: ${base}/docs)`,
    `  Database:     ${infra.databaseUrl.replace(/:[^:@/]+@/, ':***@')}`,
    `  Queues:       ${infra.queue.kind}`,
    `  API key:      ${seeded.apiKey}`,
    `  Phone number: ${seeded.phoneNumber}`,
    `  Admin token:  ${config.adminToken}`,
    '',
    'Try it:',
    `  curl -s -H 'X-API-Key: ${seeded.apiKey}' ${base}/api/v1/organization`,
    '',
    'Place a simulated call (numbers ending 0-6 answer, 7 voicemail, 8 no answer, 9 error):',
    `  curl -s -X POST -H 'X-API-Key: ${seeded.apiKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"to": "+14155550123", "from": "${seeded.phoneNumber}", "firstMessage": "Hi, this is a demo call"}' \\`,
    `    ${base}/api/v1/calls`,
    '',
  ];
  console.log(lines.join('\n'));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof StartupError) console.error(`Demo failed: ${error.message}`);
  else console.error('Demo failed:', error);
  process.exit(1);
});
