import type { TypeNode } from './declaration-graph';
import { SdkName, sdkDeclarations } from './sdk-declarations';

/**
 * A correction to an SDK where the provider's API document says otherwise: true when it checked the value at
 * `path` itself (pushing its refusals to `errors`), false to let the declaration judge it.
 */
export type SchemaCorrection = (path: string, value: unknown, errors: string[]) => boolean;

/**
 * Validates JSON bodies against a provider SDK's own type declarations (the SDKs ship no runtime schemas), as the
 * TypeScript compiler reads them (declaration-graph.ts, once per SDK version): unknown properties are refused the
 * way the providers' APIs refuse them ("property X should not exist", prefixed by the path of the nested object),
 * required ones must be there, and every value must fit its declared type (literals, unions, arrays, records).
 */
export class DeclarationSchema {
  private readonly nodes: TypeNode[];
  private readonly types: Record<string, number>;

  /** `sdk`: whose declarations, named in errors. */
  constructor(
    private readonly provider: SdkName,
    private readonly corrected: SchemaCorrection = () => false,
  ) {
    const graph = sdkDeclarations(provider);
    this.nodes = graph.nodes;
    this.types = graph.exports;
  }

  /** The provider's 400 messages for `value` as the SDK type `typeName` (e.g. "CreateCallDto"); empty when it fits. */
  validate(typeName: string, value: unknown): string[] {
    const type = Object.hasOwn(this.types, typeName) ? this.types[typeName] : undefined;
    if (type === undefined) throw new Error(`${this.provider}'s SDK has no type ${typeName}`);
    const errors: string[] = [];
    this.check(value, type, '', errors);
    return errors;
  }

  private check(value: unknown, id: number, path: string, errors: string[]): void {
    const name = path || 'body';
    const type = this.nodes[id];
    switch (type.kind) {
      case 'any':
        return;
      case 'union':
        return this.checkUnion(value, type.members, path, errors);
      case 'undefined':
        return void (value !== undefined && errors.push(`${name} should not exist`));
      case 'null':
        return void (value !== null && errors.push(`${name} must be null`));
      case 'literal':
        return void (value !== type.value && errors.push(`${name} must be one of the following values: ${type.value}`));
      case 'true':
      case 'false':
        return void (value !== (type.kind === 'true') && errors.push(`${name} must be ${type.kind}`));
      case 'string':
        return void (typeof value !== 'string' && errors.push(`${name} must be a string`));
      case 'number':
        return void (typeof value !== 'number' && errors.push(`${name} must be a number`));
      case 'boolean':
        return void (typeof value !== 'boolean' && errors.push(`${name} must be a boolean value`));
      case 'array':
        if (!Array.isArray(value)) return void errors.push(`${name} must be an array`);
        return value.forEach((item, i) => this.check(item, type.element, `${path}[${i}]`, errors));
      case 'object':
        return this.checkObject(value, type, path, errors);
    }
  }

  private checkUnion(value: unknown, all: number[], path: string, errors: string[]): void {
    const members = all.filter((m) => this.nodes[m].kind !== 'undefined');
    if (value === undefined) {
      if (members.length !== all.length) return;
      return void errors.push(`${path || 'body'} should not be empty`);
    }
    // Booleans are the union true | false; discriminated unions are tried member by member, best fit reported.
    let best: string[] | null = null;
    for (const member of members) {
      const found: string[] = [];
      this.check(value, member, path, found);
      if (!found.length) return;
      if (!best || found.length < best.length) best = found;
    }
    errors.push(...(best ?? [`${path || 'body'} has no valid type`]));
  }

  private checkObject(value: unknown, type: Extract<TypeNode, { kind: 'object' }>, path: string, errors: string[]) {
    const name = path || 'body';
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return void errors.push(`${name} must be an object`);
    }
    const record = value as Record<string, unknown>;
    const properties = new Map(type.properties.map((p) => [p.name, p]));
    const prefix = path ? `${path}.` : '';
    for (const [key, item] of Object.entries(record)) {
      const property = properties.get(key);
      if (this.corrected(`${prefix}${key}`, item, errors)) continue;
      if (property) this.check(item, property.type, `${prefix}${key}`, errors);
      else if (type.index !== undefined) this.check(item, type.index, `${prefix}${key}`, errors);
      else errors.push(`${prefix}property ${key} should not exist`);
    }
    for (const property of type.properties) {
      if (!property.optional && record[property.name] === undefined) {
        errors.push(`${prefix}${property.name} should not be null or undefined`);
      }
    }
  }
}
