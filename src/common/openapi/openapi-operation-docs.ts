import type { OpenAPIObject } from '@nestjs/swagger';
import { REQUEST_EXAMPLES } from './openapi-request-examples';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Response headers, documented once as components and referenced from every response that carries them. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      "The id of this request (the caller's own `X-Request-Id` when it sent a sane one); quote it in support requests.",
    schema: { type: 'string', example: '7f0c7a8e-2c1b-4b7e-9a61-3c1d2f5e8a90' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this API key (`RATE_LIMIT_PER_MINUTE`).',
    schema: { type: 'integer', example: 600 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', example: 599 },
  },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer', example: 42 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 30 } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const TAGS: Record<string, string> = {
  Assistants: 'Outbound assistants (reusable voice, model and transcriber settings) and inbound assistants.',
  Calls: 'Outbound calls placed now or scheduled, inbound calls, transcripts and recordings.',
  Cases: 'Call scripts: opening line, system prompt and the variables they use.',
  'Contact groups': 'Groups of contacts (read-only through the API).',
  Contacts: 'People to call: name, phone, tags, groups and custom fields.',
  Messaging: 'Chat messaging (WhatsApp): connected accounts, conversations and sending messages.',
  Organization: 'The organization bound to the API key.',
  'Phone numbers': 'The numbers assigned to the organization; one is the caller id of every call.',
  Usage: 'Plan, minute balance, current-period spend and the minute ledger (read-only).',
  Webhooks: 'Signed HTTP notifications of call and contact events (see `x-webhooks` for the events).',
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Example of one schema built from its properties' own examples (the fallback when REQUEST_EXAMPLES has none). */
export function exampleOf(schema: Json, schemas: Json): unknown {
  if (schema.$ref) return exampleOf(schemas[schema.$ref.split('/').pop()], schemas);
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf?.length === 1) return exampleOf(schema.allOf[0], schemas);
  // A nullable reference (openapi-nullable-refs.ts): the referenced object's example, as a present value shows.
  if (schema.anyOf) return exampleOf(schema.anyOf[0], schemas);
  if (schema.nullable) return null;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.properties) {
    const required: string[] = schema.required ?? Object.keys(schema.properties);
    return Object.fromEntries(required.map((k) => [k, exampleOf(schema.properties[k], schemas)]));
  }
  if (schema.type === 'array') return schema.items ? [exampleOf(schema.items, schemas)] : [];
  const strings: Record<string, string> = {
    'date-time': '2025-01-01T10:00:00.000Z',
    uuid: '0b5c8e0e-4f59-4c53-9d0f-2f6f1d0f8a11',
  };
  const byType: Record<string, unknown> = {
    string: strings[schema.format] ?? 'text',
    number: 0,
    integer: 0,
    boolean: false,
    object: {},
  };
  return byType[schema.type];
}

/** The first required field of a body, for a validation example that names a real field of the operation. */
function firstField(operation: Json, schemas: Json): string | undefined {
  const ref: string | undefined = operation.requestBody?.content?.['application/json']?.schema?.$ref;
  const schema = ref ? schemas[ref.split('/').pop()!] : undefined;
  return schema?.required?.[0] ?? Object.keys(schema?.properties ?? {})[0];
}

function documentOperation(operation: Json, schemas: Json): void {
  const scope: string | undefined = operation['x-required-scope'];
  const idempotent = (operation.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key');
  if (!operation.description) {
    operation.description = [
      `${operation.summary ?? operation.operationId}.`,
      scope ? `Requires an API key with the scope \`${scope}\` (or \`*\`).` : '',
      idempotent ? 'Send an `Idempotency-Key` to make a retry safe.' : '',
    ]
      .filter(Boolean)
      .join(' ');
  }
  const body = operation.requestBody?.content?.['application/json'];
  if (body && body.example === undefined && body.examples === undefined) {
    body.example = REQUEST_EXAMPLES[operation.operationId] ?? exampleOf(body.schema, schemas);
  }
  const field = firstField(operation, schemas);
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const headers: Json = { 'X-Request-Id': headerRef('X-Request-Id'), ...(response.headers ?? {}) };
    if (operation.security?.length) {
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[name] = headerRef(name);
    }
    if (status === '429' || status === '503') headers['Retry-After'] = headerRef('Retry-After');
    if (idempotent && status.startsWith('2')) headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
    response.headers = headers;
    // The shared error examples are generic: name this operation's own scope and body field.
    const examples = response.content?.['application/json']?.examples ?? {};
    if (examples.INSUFFICIENT_SCOPE && scope) {
      examples.INSUFFICIENT_SCOPE.value.error.message = `This key lacks the scope ${scope}`;
    }
    if (examples.VALIDATION_ERROR) {
      examples.VALIDATION_ERROR.value.error.message = field
        ? `${field}: ${field} should not be empty`
        : 'id: id must be a UUID';
    }
  }
}

/**
 * What every operation needs and the decorators do not say: a description, a request example, the response
 * headers (X-Request-Id everywhere, RateLimit-* on keyed routes, Retry-After on 429/503, Idempotent-Replayed on
 * idempotent creates), error examples naming the operation's own scope and fields; and tag descriptions.
 */
export function applyOperationDocs(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Json;
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  const tags = new Set<string>();
  for (const item of Object.values<Json>(document.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      documentOperation(item[method], schemas);
      (item[method].tags ?? []).forEach((t: string) => tags.add(t));
    }
  }
  document.tags = [...tags].sort().map((name) => ({ name, description: TAGS[name] ?? `${name} operations.` }));
}
