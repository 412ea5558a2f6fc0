import Ajv from 'ajv';
import { TOOL_LIMITS } from './tool-limits';

/** One compiler for customers' schemas; strict mode off so annotations (`example`) are accepted. */
const ajv = new Ajv({ strict: false });

/** Why `schema` cannot be a function tool's `parameters`, or null when it can. */
export function toolParametersProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'must be a JSON Schema object';
  if (Buffer.byteLength(JSON.stringify(schema)) > TOOL_LIMITS.parametersBytes) {
    return `must be at most ${TOOL_LIMITS.parametersBytes} bytes serialised as JSON`;
  }
  if ((schema as { type?: unknown }).type !== 'object') return 'must describe an object (`"type": "object"`)';
  try {
    ajv.compile(schema);
  } catch (error) {
    return `does not compile as JSON Schema: ${(error as Error).message.slice(0, 200)}`;
  }
  return null;
}
