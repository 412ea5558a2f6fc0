const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).length;

/** The bounds of a flat key-value object: contact custom fields, call variable values. */
export interface FlatRecordLimits {
  maxKeys: number;
  /** Keys are 1..maxKeyLength characters. */
  maxKeyLength: number;
  maxStringLength: number;
  /** Value types allowed besides strings: numbers, booleans and null (custom fields), or strings only. */
  scalars: boolean;
  /** Bytes of the object serialised as JSON (UTF-8); unset: not checked. */
  maxBytes?: number;
}

/**
 * Why `value` breaks the limits, or null when it is a flat object within them. Keys are checked before
 * values. Free of Node and of the validation framework: the console checks uploaded rows with this same function.
 */
export function flatRecordProblem(value: unknown, limits: FlatRecordLimits): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const keys = Object.keys(value);
  if (keys.length > limits.maxKeys) return `must have at most ${limits.maxKeys} keys`;
  for (const key of keys) {
    if (key.length < 1 || key.length > limits.maxKeyLength) {
      return `keys must be 1-${limits.maxKeyLength} characters`;
    }
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'string') {
      if (item.length > limits.maxStringLength) {
        return `values must be at most ${limits.maxStringLength} characters ("${key.slice(0, 64)}")`;
      }
    } else if (!limits.scalars) {
      return `values must be strings ("${key.slice(0, 64)}")`;
    } else if (!(item === null || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item)))) {
      return `values must be a string, number, boolean or null, not nested ("${key.slice(0, 64)}")`;
    }
  }
  if (limits.maxBytes !== undefined && utf8Bytes(JSON.stringify(value)) > limits.maxBytes) {
    return `must be at most ${limits.maxBytes} bytes serialised as JSON`;
  }
  return null;
}
