import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from '../auth/access.decorators';
import { ErrorEnvelopeDto } from './error-envelope.dto';

const DESCRIPTION = `HTTP JSON API for AI voice calls, contacts, call scripts (cases), assistants, webhooks,
chat messaging and minute usage. Every request carries an API key in \`X-API-Key\` and acts on the one
organization bound to that key. Success bodies are \`{"data": ...}\`; errors are \`{"error": {"code", "message"}}\`.
Every response carries \`X-Request-Id\`.`;

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The public contract, generated from the code and sorted so the committed file diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Voice Calling API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addServer('http://localhost:3000', 'Local demo')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorEnvelopeDto],
    operationIdFactory: (_controller, method) => method,
  });
  return sortDeep(document) as OpenAPIObject;
}

/** Serves the document at /docs-json and Swagger UI at /docs. */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}
