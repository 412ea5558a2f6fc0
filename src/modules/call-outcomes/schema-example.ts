/**
 * An object built from a JSON Schema the way the simulator fills in what a model would (docs/tools.md): each
 * property's `example`, else its `default`, else its first `enum` value, else an empty value of its type ("", 0,
 * false, [], or a nested object built the same way).
 */
export function exampleFromSchema(schema: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const value = exampleValue(schema ?? {}, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Deeper schemas than this are filled with null (schemas are bounded in size anyway). */
const MAX_DEPTH = 16;

function exampleValue(schema: Record<string, unknown>, depth: number): unknown {
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      if (depth >= MAX_DEPTH) return {};
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, exampleValue(v ?? {}, depth + 1)]));
    }
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
