import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { GENERATED_DIR } from './generated-sources';

/**
 * The committed OpenAPI document turned into a response validator. Every end-to-end response to a documented
 * operation must carry a documented status, a body matching that status's schema (no undocumented fields), and,
 * for errors, one of the codes the document lists for that status. The document is the contract integrators
 * generate clients from, so a mismatch is a bug in the code's documentation (or in the code), never in the test.
 */

type Json = Record<string, any>;

export interface ContractOperation {
  method: string;
  /** The OpenAPI path template, e.g. /api/v1/calls/{id}. */
  path: string;
  operationId: string;
  requiredScope?: string;
  operation: Json;
  pattern: RegExp;
  literalSegments: number;
}

const REF_PREFIX = '#/components/schemas/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * OpenAPI 3.0 schema -> JSON Schema for Ajv: `nullable` becomes "or null", and objects that list their properties
 * refuse undocumented ones (an undocumented field is invisible to generated clients, so the document is wrong).
 */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) out.$ref = `doc${value}`;
    else if (key === 'properties')
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    else if (key === 'example' || key === 'examples') continue;
    else out[key] = toJsonSchema(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (out.nullable === true) {
    delete out.nullable;
    // As generators read OpenAPI 3.0.3: `nullable` does not extend an `enum`, so null passes only when listed.
    if (Array.isArray(out.enum)) return { ...out, type: [out.type, 'null'] };
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

export class OpenApiContract {
  readonly document: Json;
  readonly operations: ContractOperation[];
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  /** `name`: a committed document, openapi/<name>.yaml, read as the JSON the global setup made of it. */
  constructor(name: 'openapi' | 'admin' = 'openapi') {
    this.document = JSON.parse(readFileSync(join(GENERATED_DIR, `${name}.json`), 'utf8'));
    // No check of the schema against JSON Schema's meta-schema: the document's schemas sit under `components`, a
    // keyword the meta-schema does not describe, so it checked nothing, and compiling it cost every test file a
    // tenth of a second. Each schema is checked when a response compiles it.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'doc', components: { schemas: toJsonSchema(this.document.components?.schemas ?? {}) } });
    this.operations = [];
    for (const [path, item] of Object.entries<Json>(this.document.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const segments = path.split('/');
        const pattern = new RegExp(
          `^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
        );
        this.operations.push({
          method: method.toUpperCase(),
          path,
          operationId: operation.operationId,
          requiredScope: operation['x-required-scope'],
          operation,
          pattern,
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
        });
      }
    }
    // Literal paths win over templated ones (/contacts/search before /contacts/{id}).
    this.operations.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The documented operation a request hits, or undefined for undocumented paths (docs, provider callbacks). */
  match(method: string, pathname: string): ContractOperation | undefined {
    return this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(pathname));
  }

  /** Every way the response departs from the document, empty when it conforms. */
  check(method: string, pathname: string, status: number, body: unknown, contentType: string | null): string[] {
    const op = this.match(method, pathname);
    if (!op) return [];
    const where = `${method.toUpperCase()} ${op.path} -> ${status}`;
    const response: Json | undefined = op.operation.responses?.[String(status)] ?? op.operation.responses?.default;
    if (!response) {
      return [`${where}: status not documented (documented: ${Object.keys(op.operation.responses ?? {}).join(', ')})`];
    }
    const media: Json | undefined = response.content?.['application/json'];
    if (!media) {
      // A documented non-JSON answer (a media file's bytes) is checked by its type only.
      const type = contentType?.split(';')[0].trim();
      if (type && response.content?.[type]) return [];
      return body === undefined || body === '' ? [] : [`${where}: a body was returned but none is documented`];
    }
    if (!contentType?.includes('application/json')) return [`${where}: content-type ${contentType}, expected JSON`];
    const problems: string[] = [];
    const validate = this.validator(`${op.method} ${op.path} ${status}`, media.schema ?? {});
    if (!validate(body)) {
      for (const e of validate.errors ?? [])
        problems.push(`${where}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    }
    const code = (body as Json | undefined)?.error?.code;
    if (status >= 400 && media.examples && code && !(code in media.examples)) {
      problems.push(
        `${where}: error code ${code} not documented for this status (documented: ${Object.keys(media.examples).join(', ')})`,
      );
    }
    return problems;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as Json);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

let shared: OpenApiContract | undefined;
/** One parsed document per test file. */
export function openApiContract(): OpenApiContract {
  return (shared ??= new OpenApiContract());
}

let sharedAdmin: OpenApiContract | undefined;
/** The admin API's document (openapi/admin.yaml): the console's backend is checked like the public API. */
export function adminApiContract(): OpenApiContract {
  return (sharedAdmin ??= new OpenApiContract('admin'));
}

export class ContractViolation extends Error {
  constructor(problems: string[], body: unknown) {
    super(
      `Response does not match openapi/openapi.yaml:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body)?.slice(0, 2000)}`,
    );
  }
}
