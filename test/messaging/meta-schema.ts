import Ajv2020, { ErrorObject, ValidateFunction, _ } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { cachedFile, standaloneValidators } from '../support/build-cache';

const DOCUMENT = join(__dirname, '../fixtures/providers/meta-openapi/business-messaging-api_v23.0.yaml');
const ID = 'meta-whatsapp';
const BASE = '#/components/schemas/BaseMessageProperties';

type Schema = Record<string, any>;

/**
 * The user's business-scoped id on an inbound message, which Meta sends beside or instead of `from`, and the new
 * one a system message announces when it changes: this document (v23.0) predates both (see R4 for sends).
 */
const BUSINESS_SCOPED_FIELDS = ['from_user_id', 'system.user_id'];

/** One of the inbound webhook examples Meta publishes beside `/whatsapp/webhooks`. */
export interface MetaWebhookExample {
  name: string;
  payload: {
    object: string;
    entry: Array<{ id: string; changes: Array<{ field: string; value: Record<string, any> }> }>;
  };
}

/**
 * Meta's own OpenAPI 3.1 description of the WhatsApp Business Messaging API (test/fixtures/providers), compiled with
 * ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) once per document and repair (test/support/build-cache.ts), as
 * are its webhook examples: a test file parses neither the YAML nor the schemas. Send bodies are judged by
 * `Message`, webhooks by `WebhookPayload`; the document's own defects are repaired in `repair` below, each named.
 */
export class MetaSchema {
  private static instance: MetaSchema | null = null;
  private readonly examples: MetaWebhookExample[];
  /** `Message` by its discriminator: the send type's own schema, so that a refusal names that type's rule. */
  private readonly messages = new Map<string, ValidateFunction>();
  private readonly status: ValidateFunction;
  private readonly webhook: ValidateFunction;

  static get(): MetaSchema {
    return (MetaSchema.instance ??= new MetaSchema());
  }

  private constructor() {
    const text = readFileSync(DOCUMENT, 'utf8');
    const inputs = [text, readFileSync(__filename)];
    let parsed: Schema | undefined;
    const document = () => (parsed ??= parse(text) as Schema);
    const examplesFile = cachedFile('meta-openapi', 'webhook-examples.json', inputs, () =>
      JSON.stringify(webhookExamples(document())),
    );
    this.examples = JSON.parse(readFileSync(examplesFile, 'utf8'));
    const validators = standaloneValidators<string>('meta-openapi', inputs, () => compile(document()));
    for (const [name, validate] of Object.entries(validators)) {
      if (name.startsWith(MESSAGE)) this.messages.set(name.slice(MESSAGE.length), validate);
    }
    this.status = validators.status;
    this.webhook = validators.webhook;
  }

  /** Why Meta refuses this `POST /{phone-number-id}/messages` body; empty when it fits `Message`. */
  sendErrors(body: unknown): string[] {
    const type = (body as { type?: unknown } | null)?.type;
    const validate = typeof type === 'string' ? this.messages.get(type) : undefined;
    if (!validate) return [`/type must be one of ${[...this.messages.keys()].join(', ')}`];
    return validate(body) ? [] : describe(validate.errors);
  }

  /**
   * Why this webhook is not one Meta sends; empty when it is. The envelope and every `statuses` value are judged by
   * the schema. User messages are judged by Meta's published examples instead: the document's `IncomingMessage`
   * points at the outbound send schemas (every message type requires `to` and refuses `from`), so no example of
   * its own passes it; a message must use only the fields Meta's examples of its type use. Changes of a field this
   * document does not describe (`message_template_status_update`) are outside it and not judged.
   */
  webhookErrors(payload: any): string[] {
    const errors: string[] = [];
    const changes = (payload?.entry ?? []).flatMap((e: any) => e?.changes ?? []);
    const described = changes.filter((c: any) => c?.field !== 'message_template_status_update');
    const envelope = {
      ...payload,
      entry: (payload?.entry ?? []).map((e: any) => ({
        ...e,
        changes: (e?.changes ?? [])
          .filter((c: any) => described.includes(c))
          .map((c: any) => ({ ...c, value: c.value?.messages ? { ...c.value, messages: [] } : c.value })),
      })),
    };
    if (!this.webhook(envelope)) errors.push(...describe(this.webhook.errors));
    for (const change of described) {
      const value = change?.value ?? {};
      if (value.statuses && !this.status(value)) errors.push(...describe(this.status.errors));
      for (const message of value.messages ?? []) errors.push(...this.inboundErrors(message));
    }
    return errors;
  }

  /** The 16 inbound webhook examples Meta publishes for `POST /whatsapp/webhooks`, by name. */
  webhookExamples(): MetaWebhookExample[] {
    return this.examples;
  }

  /** An inbound message's fields against those Meta's examples of the same type use (top level and one below). */
  private inboundErrors(message: Record<string, any>): string[] {
    const seen = this.exampleFields().get(message?.type);
    // Kinds Meta publishes no example of (audio, video, document, sticker) are judged by the envelope alone.
    if (!seen) return [];
    return fieldPaths(message)
      .filter((path) => !seen.has(path) && !BUSINESS_SCOPED_FIELDS.includes(path))
      .map((path) => `inbound ${message.type} message: field ${path} is in none of Meta's examples`);
  }

  private fields?: Map<string, Set<string>>;
  private exampleFields(): Map<string, Set<string>> {
    if (this.fields) return this.fields;
    this.fields = new Map();
    for (const { payload } of this.webhookExamples()) {
      for (const change of payload.entry.flatMap((e) => e.changes)) {
        for (const message of change.value.messages ?? []) {
          const set = this.fields.get(message.type) ?? new Set<string>();
          fieldPaths(message).forEach((p) => set.add(p));
          this.fields.set(message.type, set);
        }
      }
    }
    return this.fields;
  }
}

/** The validators' names: `Message`'s member for each send type is `message:<type>`. */
const MESSAGE = 'message:';

/** `Message` by its discriminator, `StatusMessageValue` as `status` and `WebhookPayload` as `webhook`. */
function compile(document: Schema): { ajv: Ajv2020; refs: Record<string, string> } {
  const repaired = repair(structuredClone(document));
  // The document's media links are `format: url`, a name JSON Schema does not define: read as `uri`, in the
  // compiled code too (which takes each format from this expression).
  const formats = _`require("ajv-formats/dist/formats").fullFormats`;
  // strict: false, as OpenAPI adds keywords of its own (example, discriminator, xml) that JSON Schema ignores.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    code: { source: true, formats: _`{ ...${formats}, url: ${formats}.uri }` },
  });
  addFormats(ajv);
  ajv.addFormat('url', ajv.formats.uri as RegExp);
  ajv.addSchema({ ...repaired, $id: ID });
  const mapping = repaired.components.schemas.Message.discriminator.mapping as Record<string, string>;
  const refs: Record<string, string> = {};
  for (const [type, ref] of Object.entries(mapping)) refs[`${MESSAGE}${type}`] = `${ID}${ref}`;
  refs.status = `${ID}#/components/schemas/StatusMessageValue`;
  refs.webhook = `${ID}#/components/schemas/WebhookPayload`;
  return { ajv, refs };
}

/** The inbound webhook examples the document gives beside `/whatsapp/webhooks`, by name. */
function webhookExamples(document: Schema): MetaWebhookExample[] {
  const post = document.paths['/whatsapp/webhooks'].post;
  const examples = post.requestBody.content['application/json'].examples as Record<string, { value: unknown }>;
  return Object.entries(examples).map(([name, e]) => ({ name, payload: e.value as MetaWebhookExample['payload'] }));
}

/** `a`, `a.b` for every field of an object and of the objects directly inside it. */
function fieldPaths(message: Record<string, any>): string[] {
  return Object.entries(message ?? {}).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? [key, ...Object.keys(value).map((inner) => `${key}.${inner}`)]
      : [key],
  );
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}`.trim());
}

/**
 * The published document's defects, repaired narrowly (each one refuses Meta's own examples or Meta's documented
 * behaviour when validated as written):
 * - R1: every send type is `allOf: [BaseMessageProperties, {additionalProperties: false, ...}]`, whose second member
 *   then forbids `messaging_product` and `to`; the closing moves to the combination as `unevaluatedProperties:
 *   false` (2020-12), which sees both members. It is added to the types that state no closing at all (template,
 *   reaction, ...) too, since the Cloud API refuses every unknown parameter ("Param X is not a valid parameter").
 * - R2: `LanguageObject` requires `policy`, while Meta's template examples (and its API) take `{code}` alone.
 * - R3: the template button `index` pattern `^[2-6, 11-14]$` is a character class that refuses "0" and "1", which
 *   its description ("0-9") and examples use; read as the documented digit.
 * - R4: the document predates business-scoped user ids: the Cloud API takes `recipient` (a user id) where `to` is
 *   unknown, never both; `to` stays required otherwise.
 * - R5: the document's send schemas omit `biz_opaque_callback_data`, which Meta's Messages reference takes on every
 *   send (a string of at most 512 characters, echoed in the message's status webhooks); the same document has it,
 *   with that bound, on calls (`CallTerminateRequestPayload`).
 */
function repair(document: Schema): Schema {
  const schemas = document.components.schemas as Record<string, Schema>;
  for (const schema of Object.values(schemas)) {
    const members = schema.allOf as Schema[] | undefined;
    if (!members?.some((m) => m.$ref === BASE)) continue;
    members.forEach((m) => delete m.additionalProperties); // R1
    schema.unevaluatedProperties = false; // R1
  }
  schemas.LanguageObject.required = ['code']; // R2
  walk(document, (node) => {
    if (node.pattern === '^[2-6, 11-14]$') node.pattern = '^[0-9]$'; // R3
  });
  const base = schemas.BaseMessageProperties; // R4
  base.properties.recipient = { type: 'string', description: 'A business-scoped user id.' };
  base.required = base.required.filter((r: string) => r !== 'to');
  base.oneOf = [{ required: ['to'] }, { required: ['recipient'] }];
  base.properties.biz_opaque_callback_data = { type: 'string', maxLength: 512 }; // R5
  return document;
}

function walk(node: unknown, visit: (node: Schema) => void): void {
  if (!node || typeof node !== 'object') return;
  visit(node as Schema);
  Object.values(node).forEach((child) => walk(child, visit));
}
