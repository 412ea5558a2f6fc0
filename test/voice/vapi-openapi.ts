import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { standaloneValidators } from '../support/build-cache';

const DOCUMENT = join(__dirname, '../fixtures/providers/vapi-openapi/openapi.json');
const ID = 'vapi';
/** The schemas our bodies are judged by: what we send to Vapi and what we answer its server messages with. */
export const VAPI_SCHEMAS = [
  'CreateCallDTO',
  'CreateChatDTO',
  'ServerMessageResponseAssistantRequest',
  'ServerMessageResponseToolCalls',
] as const;
export type VapiSchemaName = (typeof VAPI_SCHEMAS)[number];

type Schema = Record<string, any>;

/**
 * Vapi's own OpenAPI 3.0 document (test/fixtures/providers), read once per test process and compiled with ajv
 * (which reads OpenAPI 3.0's `nullable`). The fake Vapi judges our bodies by it besides the SDK's declarations
 * (vapi-schema.ts): what the SDK's types let through and Vapi's document refuses (a pattern, a bound, an enum) is
 * refused too. The document's defects are repaired in `repair` below, each named.
 */
export class VapiOpenApi {
  private static instance: VapiOpenApi | null = null;
  private readonly validators: Record<VapiSchemaName, ValidateFunction>;

  static get(): VapiOpenApi {
    return (VapiOpenApi.instance ??= new VapiOpenApi());
  }

  private constructor() {
    this.validators = compiled();
  }

  /** Vapi's 400 messages for `value` as the document's schema `name`; empty when it fits. */
  validate(name: VapiSchemaName, value: unknown): string[] {
    const validate = this.validators[name];
    return validate(value) ? [] : (validate.errors ?? []).map(message);
  }
}

/** The validators, compiled once per document and repair (test/support/build-cache.ts). */
function compiled(): Record<VapiSchemaName, ValidateFunction> {
  const text = readFileSync(DOCUMENT, 'utf8');
  return standaloneValidators('vapi-openapi', [text, readFileSync(__filename)], () => {
    // strict: false, as OpenAPI adds keywords of its own (example, discriminator, title beside $ref).
    const ajv = new Ajv({ strict: false, code: { source: true } });
    addFormats(ajv);
    ajv.addSchema({ ...repair(JSON.parse(text)), $id: ID });
    const refs = Object.fromEntries(VAPI_SCHEMAS.map((name) => [name, `${ID}#/components/schemas/${name}`]));
    return { ajv, refs: refs as Record<VapiSchemaName, string> };
  });
}

/** In Vapi's words where it has them ("property X should not exist", prefixed by the nested object's path). */
function message(e: ErrorObject): string {
  const path = e.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replace(/\//g, '.');
  if (e.keyword === 'additionalProperties') {
    return `${path ? `${path}.` : ''}property ${(e.params as { additionalProperty: string }).additionalProperty} should not exist`;
  }
  return `${path || 'body'} ${e.message ?? 'is invalid'}`;
}

/**
 * The published document's defects, repaired narrowly (validated as published, it refuses its own examples):
 * - Q1: string enums declared `type: object` beside an `enum` of strings (e.g. `BackoffPlan.type`): typed string.
 * - Q2: `excludedStatusCodes` items typed as objects, while its example (and Vapi) take numbers.
 * - Q3: `enum: []`, which matches nothing: the property keeps its type, without the empty list.
 * - Q4: patterns written with JavaScript's slashes (`"/^[a-zA-Z0-9_-]{1,64}$/"`): the slashes dropped.
 * - Q5: `oneOf: [an enum of strings, any string]`, which refuses every documented value (it matches both): anyOf.
 * - Q6: arrays repeating their items' enum on the array itself (an array never equals a string): dropped there.
 * And one addition, as Vapi's API refuses unknown properties ("property X should not exist") though the document
 * does not say so: every object with declared properties and no word on others is closed
 * (`additionalProperties: false`).
 */
function repair(document: Schema): Schema {
  const repairOne = (node: Schema, key?: string) => {
    if (node.type === 'object' && Array.isArray(node.enum) && node.enum.every((v: unknown) => typeof v === 'string')) {
      node.type = 'string'; // Q1
    }
    if (key === 'excludedStatusCodes' && node.items?.type === 'object') node.items = { type: 'number' }; // Q2
    if (Array.isArray(node.enum) && node.enum.length === 0) delete node.enum; // Q3
    if (typeof node.pattern === 'string' && /^\/.*\/[a-z]*$/.test(node.pattern)) {
      node.pattern = node.pattern.replace(/^\/(.*)\/[a-z]*$/, '$1'); // Q4
    }
    const members = node.oneOf as Schema[] | undefined;
    if (members?.length === 2 && members.some((m) => m.enum) && members.some((m) => m.type === 'string' && !m.enum)) {
      node.anyOf = members; // Q5
      delete node.oneOf;
    }
    if (node.type === 'array' && Array.isArray(node.enum)) delete node.enum; // Q6
    if (node.properties && typeof node.properties === 'object' && node.additionalProperties === undefined) {
      node.additionalProperties = false; // closed, as Vapi's API is
    }
  };
  Object.values(document.components.schemas).forEach((schema) => walk(schema, repairOne));
  return document;
}

/** Keywords whose values are data, not schemas. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** Every schema object from `node` down, with the name of the property it describes (when it describes one). */
function walk(node: unknown, visit: (node: Schema, key?: string) => void, key?: string): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((item) => walk(item, visit));
  visit(node as Schema, key);
  for (const [name, child] of Object.entries(node)) {
    if (DATA.has(name)) continue;
    if (name === 'properties' && child && typeof child === 'object') {
      for (const [property, schema] of Object.entries(child)) walk(schema, visit, property);
    } else walk(child, visit);
  }
}
