import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { stringify } from 'yaml';
import { AppModule } from '../app.module';
import { buildOpenApiDocument } from '../common/openapi/openapi-document';
import { parseConfig } from '../infra/config/app-config';

/**
 * `npm run openapi`: builds the module graph in preview mode (no database, no queue, nothing listens) and
 * writes the sorted document to openapi/openapi.yaml.
 */
async function main(): Promise<void> {
  const config = parseConfig({ NODE_ENV: 'development' });
  const app = await NestFactory.create(
    AppModule.forRoot({
      config,
      databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
      queue: { kind: 'redis', connection: {}, prefix: 'unused' },
    }),
    new FastifyAdapter(),
    { preview: true, logger: false },
  );
  const target = resolve(process.argv[2] ?? 'openapi/openapi.yaml');
  writeFileSync(target, stringify(buildOpenApiDocument(app), { lineWidth: 0, aliasDuplicateObjects: false }));
  await app.close();
  console.log(`OpenAPI document written to ${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
