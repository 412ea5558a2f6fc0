import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { stringify } from 'yaml';
import { AppModule } from '../app.module';
import { OpenApiAudience, buildOpenApiDocument } from '../bootstrap/openapi-document';
import { webhookEventsJsonSchema } from '../common/openapi/webhook-json-schema';
import { parseConfig } from '../infra/config/app-config';

/**
 * `npm run openapi`: builds the module graph in preview mode (no database, no queue, nothing listens) and
 * writes the sorted documents: the public contract to openapi/openapi.yaml (argument 1), the admin API to
 * openapi/admin.yaml (argument 2) and the webhook payloads as JSON Schema to openapi/webhook-events.schema.json
 * (argument 3).
 */
async function main(): Promise<void> {
  const config = parseConfig({ NODE_ENV: 'development' });
  const app = await NestFactory.create(
    AppModule.forRoot({
      config,
      database: { main: 'postgres://unused@127.0.0.1:1/unused', direct: 'postgres://unused@127.0.0.1:1/unused' },
      queue: { kind: 'redis', connection: {}, prefix: 'unused' },
    }),
    new FastifyAdapter(),
    { preview: true, logger: false },
  );
  const targets: Record<OpenApiAudience, string> = {
    public: resolve(process.argv[2] ?? 'openapi/openapi.yaml'),
    admin: resolve(process.argv[3] ?? 'openapi/admin.yaml'),
  };
  for (const [audience, target] of Object.entries(targets) as Array<[OpenApiAudience, string]>) {
    writeFileSync(
      target,
      stringify(buildOpenApiDocument(app, audience), { lineWidth: 0, aliasDuplicateObjects: false }),
    );
    console.log(`OpenAPI document (${audience}) written to ${target}`);
  }
  const webhookSchema = resolve(process.argv[4] ?? 'openapi/webhook-events.schema.json');
  writeFileSync(webhookSchema, `${JSON.stringify(webhookEventsJsonSchema(buildOpenApiDocument(app)), null, 2)}\n`);
  console.log(`Webhook events JSON Schema written to ${webhookSchema}`);
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
