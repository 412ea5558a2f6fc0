import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, any>;
const REF = '#/components/schemas/';

/** Applies `visit` to every object in the tree, depth first. */
export function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) return value.forEach((v) => walk(v, visit));
  if (!value || typeof value !== 'object') return;
  visit(value as Json);
  Object.values(value).forEach((v) => walk(v, visit));
}

/**
 * Readable component names, the way generated clients show them: outputs lose `Response` (`CallResponse` ->
 * `Call`), inputs lose `Dto` (`CreateCallDto` -> `CreateCall`), and an input that would then collide with an
 * output of the same name is `...Input` (`VoiceConfigDto` -> `VoiceConfigInput`). `...Response` is left for
 * the success envelopes (nameEnvelopes).
 */
function renameSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const outputs = new Set(Object.keys(schemas).flatMap((n) => (n.endsWith('Response') ? [n.slice(0, -8)] : [])));
  const renames = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Response')) renames.set(name, name.slice(0, -8));
    else if (name.endsWith('Dto')) {
      const bare = name.slice(0, -3);
      renames.set(name, outputs.has(bare) ? `${bare}Input` : bare);
    }
  }
  document.components!.schemas = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [renames.get(name) ?? name, schema]),
  );
  const renamed = (ref: string) =>
    ref.startsWith(REF) ? REF + (renames.get(ref.slice(REF.length)) ?? ref.slice(REF.length)) : ref;
  walk(document, (node) => {
    if (typeof node.$ref === 'string') node.$ref = renamed(node.$ref);
    const mapping = node.discriminator?.mapping as Record<string, string> | undefined;
    if (mapping) for (const key of Object.keys(mapping)) mapping[key] = renamed(mapping[key]);
  });
}

const refName = (schema: Json | undefined): string | undefined =>
  typeof schema?.$ref === 'string' ? schema.$ref.slice(REF.length) : undefined;

/**
 * Every inline success envelope (`{data}`, `{data: []}`, `{data: [], pagination}`, as ApiDataResponse and
 * ApiPageResponse write them) becomes a named component: `CallResponse`, `CallListResponse`. Done on the
 * document, so a route added anywhere with the shared decorators gets a named envelope without further work.
 */
function nameEnvelopes(document: OpenAPIObject): void {
  const schemas = document.components!.schemas as Json;
  walk(document.paths, (node) => {
    if (!node.responses) return;
    for (const [status, response] of Object.entries<Json>(node.responses)) {
      const media = response?.content?.['application/json'];
      const data = media?.schema?.properties?.data;
      if (!status.startsWith('2') || !data || media.schema.$ref) continue;
      const item = refName(data) ?? refName(data.items);
      if (!item) continue;
      const paged = Boolean(media.schema.properties.pagination);
      let name = data.type === 'array' ? `${item}ListResponse` : `${item}Response`;
      // One model can be listed with and without pagination: the unpaginated list is the `...ArrayResponse`.
      if (data.type === 'array' && schemas[name] && Boolean(schemas[name].properties.pagination) !== paged)
        name = paged ? `${item}PageResponse` : `${item}ArrayResponse`;
      schemas[name] = media.schema;
      media.schema = { $ref: REF + name };
    }
  });
}

/**
 * OpenAPI 3.0.3: `nullable` does not add null to an `enum`, so generators (zod, openapi-typescript) refuse a null
 * the schema meant to allow unless the enum lists it.
 */
function nullInNullableEnums(document: OpenAPIObject): void {
  walk(document, (node) => {
    if (node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
  });
}

export function applySchemaConventions(document: OpenAPIObject): void {
  renameSchemas(document);
  nameEnvelopes(document);
  nullInNullableEnums(document);
}
