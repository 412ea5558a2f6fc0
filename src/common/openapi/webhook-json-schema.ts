import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

const OPENAPI_REF = '#/components/schemas/';
/** OpenAPI-only keywords with no meaning in JSON Schema (the examples stay in the OpenAPI document). */
const DROPPED = new Set(['example', 'nullable', 'x-extension']);

/**
 * The webhook payloads as a standalone JSON Schema (draft 2020-12) for receivers that validate with a JSON Schema
 * library rather than an OpenAPI tool: the `<Family>WebhookEvent` schemas of the public document (`x-webhooks`)
 * and every schema they reach, moved to `$defs`, with OpenAPI 3.0's `nullable` written as JSON Schema's `null`
 * type. Derived from the document, so the two cannot disagree; committed as openapi/webhook-events.schema.json.
 */
export function webhookEventsJsonSchema(document: OpenAPIObject): Json {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const roots = Object.keys(schemas)
    .filter((name) => name.endsWith('WebhookEvent'))
    .sort();
  const defs: Record<string, unknown> = {};
  const pending = [...roots];
  while (pending.length) {
    const name = pending.pop()!;
    if (name in defs) continue;
    defs[name] = convert(schemas[name], (ref) => pending.push(ref));
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Voice Calling API webhook events',
    description:
      'The JSON body of every webhook delivery (see x-webhooks in openapi.yaml for the headers and delivery rules).',
    oneOf: roots.map((name) => ({ $ref: `#/$defs/${name}` })),
    $defs: Object.fromEntries(
      Object.keys(defs)
        .sort()
        .map((name) => [name, defs[name]]),
    ),
  };
}

function convert(value: unknown, reached: (name: string) => void): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, reached));
  if (!value || typeof value !== 'object') return value;
  const schema = value as Json;
  const out: Json = {};
  for (const [key, child] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === '$ref' && typeof child === 'string' && child.startsWith(OPENAPI_REF)) {
      const name = child.slice(OPENAPI_REF.length);
      reached(name);
      out.$ref = `#/$defs/${name}`;
    } else {
      out[key] = convert(child, reached);
    }
  }
  if (schema.nullable === true) {
    // The null branch of a nullable reference (openapi-nullable-refs.ts): null alone.
    if (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) return { type: 'null' };
    if (typeof schema.type === 'string') out.type = [schema.type, 'null'];
    else if (!('type' in schema)) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}
