import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from '../common/auth/access.decorators';
import { ErrorEnvelopeDto } from '../common/openapi/error-envelope.dto';
import { applyBodyLimitResponses } from '../common/openapi/openapi-body-limit';
import { applyNullableRefs } from '../common/openapi/openapi-nullable-refs';
import { applyOperationDocs } from '../common/openapi/openapi-operation-docs';
import { SWAGGER_UI_CSS, SWAGGER_UI_JS } from './swagger-ui-theme';
import { applySchemaConventions } from '../common/openapi/openapi-schema-names';
import { applyWebhooks } from '../modules/webhooks/webhook-events-openapi';

const DESCRIPTION = `HTTP JSON API for AI voice calls, contacts, call scripts (cases), assistants, webhooks,
chat messaging and minute usage. Every request carries an API key in \`X-API-Key\` and acts on the one
organization bound to that key. Success bodies are \`{"data": ...}\`; errors are \`{"error": {"code", "message"}}\`.
Every response carries \`X-Request-Id\`.

Limits: a JSON body is at most 1 MiB (413), with at most 2,000 members in total and nesting at most 32 deep (400
VALIDATION_ERROR, decided before the body is read into objects). A path parameter over 100 characters is an unknown
id (404 NOT_FOUND). Failed authentications and scope refusals are limited per client address (429 RATE_LIMITED with
\`Retry-After\`). Field limits are on each schema.

Outside this document: the health checks (\`GET /health/live\`, \`GET /health/ready\`, no API key) and the admin API
are in openapi/admin.yaml; the voice and messaging providers' callbacks (\`/platform/vapi/events\`,
\`/platform/whatsapp/webhook\`) speak those providers' own contracts (docs/operations.md).`;

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

const ADMIN_DESCRIPTION = `The admin API: the web console's backend (docs/contracts/admin-api.md). Off unless \`ADMIN_TOKEN\` is set.
Scripts send \`Authorization: Bearer <ADMIN_TOKEN>\`; the console signs in once (POST /admin/v1/session) and then
sends its HttpOnly session cookie, plus \`X-Console-CSRF\` on unsafe methods. Organization-scoped routes take the
organization from the path and run the same domain services, rules and errors as the public API.

Operations (\`/health/*\`) are always served and need no credentials: they are here, with the admin API, because
every operation of the public document takes an API key.`;

/** Paths of openapi/admin.yaml: the admin API and the operators' health checks. */
const ADMIN_PREFIXES = ['/admin/', '/health/'];

export type OpenApiAudience = 'public' | 'admin';

/** Every `#/components/schemas/X` reachable from the paths, so each document carries only its own schemas. */
function reachableSchemas(document: OpenAPIObject): Set<string> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        const name = child.slice('#/components/schemas/'.length);
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(child);
      }
    }
  };
  visit(document.paths);
  return seen;
}

/** Keeps the paths of one audience (admin: under /admin/ and /health/) and the schemas they use. */
function forAudience(document: OpenAPIObject, audience: OpenApiAudience): OpenAPIObject {
  const isAdmin = (path: string) => ADMIN_PREFIXES.some((prefix) => path.startsWith(prefix));
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => isAdmin(path) === (audience === 'admin')),
  );
  const scoped = { ...document, paths };
  const keep = reachableSchemas(scoped);
  if (audience === 'public') keep.add(ErrorEnvelopeDto.name);
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => keep.has(name)),
  );
  return { ...scoped, components: { ...document.components, schemas } };
}

function documentConfig(audience: OpenApiAudience) {
  const builder = new DocumentBuilder()
    .setVersion('1.0.0')
    // Relative: Swagger UI's "Try it out" calls the host and port that served the page, whatever PORT is.
    .addServer('/', 'This server');
  if (audience === 'admin') {
    return builder
      .setTitle('Voice Calling admin API')
      .setDescription(ADMIN_DESCRIPTION)
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'AdminToken')
      .addCookieAuth(
        'vc_console_session',
        { type: 'apiKey', in: 'cookie', name: 'vc_console_session' },
        'ConsoleSession',
      )
      .addSecurityRequirements('AdminToken')
      .addSecurityRequirements('ConsoleSession')
      .build();
  }
  return builder
    .setTitle('Voice Calling API')
    .setDescription(DESCRIPTION)
    .setLicense('Proprietary: use governed by your service agreement', 'https://example.com/terms')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SECURITY)
    .build();
}

/**
 * A contract generated from the code and sorted so the committed file diffs cleanly: `public` is
 * openapi/openapi.yaml (everything else), `admin` is openapi/admin.yaml (the console's backend and the health checks).
 */
export function buildOpenApiDocument(app: INestApplication, audience: OpenApiAudience = 'public'): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, documentConfig(audience), {
    extraModels: [ErrorEnvelopeDto],
    operationIdFactory: (_controller, method) => method,
  });
  const scoped = forAudience(document, audience);
  applyBodyLimitResponses(scoped);
  applyNullableRefs(scoped);
  // The generator conventions (schema names, operation docs, webhooks) shape the public contract; the admin
  // document is the console's own and keeps the names its generated client was built from.
  if (audience === 'public') {
    applySchemaConventions(scoped);
    applyOperationDocs(scoped);
    applyWebhooks(scoped);
  }
  return sortDeep(scoped) as OpenAPIObject;
}

/**
 * Serves the document at /docs-json and Swagger UI at /docs. The document is built on the first request for it and
 * kept: building it scans every route and schema, which every process (workers, schedulers, each test's app) would
 * otherwise pay at start-up and hold in memory without ever serving it.
 */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customCss: SWAGGER_UI_CSS,
    customJsStr: SWAGGER_UI_JS,
    swaggerOptions: { deepLinking: false },
  });
}
