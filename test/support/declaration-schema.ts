import ts from 'typescript';

/**
 * A correction to an SDK where the provider's API document says otherwise: true when it checked the value at
 * `path` itself (pushing its refusals to `errors`), false to let the declaration judge it.
 */
export type SchemaCorrection = (path: string, value: unknown, errors: string[]) => boolean;

/**
 * Validates JSON bodies against a provider SDK's own type declarations (the SDKs ship no runtime schemas), read
 * with the TypeScript compiler at test time: unknown properties are refused the way the providers' APIs refuse
 * them ("property X should not exist", prefixed by the path of the nested object), required ones must be there,
 * and every value must fit its declared type (literals, unions, arrays, records).
 */
export class DeclarationSchema {
  private readonly checker: ts.TypeChecker;
  private readonly types = new Map<string, ts.Type>();

  /** `entry`: the declaration file exporting the SDK's types; `provider` names it in errors. */
  constructor(
    private readonly provider: string,
    entry: string,
    private readonly corrected: SchemaCorrection = () => false,
  ) {
    const program = ts.createProgram([entry], { strict: true, noEmit: true, skipLibCheck: true, types: [] });
    this.checker = program.getTypeChecker();
    const source = program.getSourceFile(entry)!;
    const module = this.checker.getSymbolAtLocation(source)!;
    for (const symbol of this.checker.getExportsOfModule(module)) {
      const resolved = symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
      if (resolved.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        this.types.set(symbol.name, this.checker.getDeclaredTypeOfSymbol(resolved));
      }
    }
  }

  /** The provider's 400 messages for `value` as the SDK type `typeName` (e.g. "CreateCallDto"); empty when it fits. */
  validate(typeName: string, value: unknown): string[] {
    const type = this.types.get(typeName);
    if (!type) throw new Error(`${this.provider}'s SDK has no type ${typeName}`);
    const errors: string[] = [];
    this.check(value, type, '', errors);
    return errors;
  }

  private check(value: unknown, type: ts.Type, path: string, errors: string[]): void {
    const name = path || 'body';
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
    if (type.isUnion()) return this.checkUnion(value, type, path, errors);
    if (f & ts.TypeFlags.Undefined) {
      if (value !== undefined) errors.push(`${name} should not exist`);
      return;
    }
    if (f & ts.TypeFlags.Null) {
      if (value !== null) errors.push(`${name} must be null`);
      return;
    }
    if (type.isStringLiteral() || type.isNumberLiteral()) {
      if (value !== type.value) errors.push(`${name} must be one of the following values: ${type.value}`);
      return;
    }
    if (f & ts.TypeFlags.BooleanLiteral) {
      const expected = this.checker.typeToString(type) === 'true';
      if (value !== expected) errors.push(`${name} must be ${expected}`);
      return;
    }
    if (f & ts.TypeFlags.StringLike) return void (typeof value !== 'string' && errors.push(`${name} must be a string`));
    if (f & ts.TypeFlags.NumberLike) return void (typeof value !== 'number' && errors.push(`${name} must be a number`));
    if (f & ts.TypeFlags.BooleanLike) {
      return void (typeof value !== 'boolean' && errors.push(`${name} must be a boolean value`));
    }
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      if (!Array.isArray(value)) return void errors.push(`${name} must be an array`);
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      value.forEach((item, i) => this.check(item, element, `${path}[${i}]`, errors));
      return;
    }
    if (f & ts.TypeFlags.Object || type.isIntersection()) return this.checkObject(value, type, path, errors);
  }

  private checkUnion(value: unknown, type: ts.UnionType, path: string, errors: string[]): void {
    const members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
    if (value === undefined) {
      if (members.length !== type.types.length) return;
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

  private checkObject(value: unknown, type: ts.Type, path: string, errors: string[]): void {
    const name = path || 'body';
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return void errors.push(`${name} must be an object`);
    }
    const record = value as Record<string, unknown>;
    const index = this.checker.getIndexInfoOfType(type, ts.IndexKind.String);
    const properties = new Map(this.checker.getPropertiesOfType(type).map((p) => [p.name, p]));
    const prefix = path ? `${path}.` : '';
    for (const [key, item] of Object.entries(record)) {
      const property = properties.get(key);
      if (this.corrected(`${prefix}${key}`, item, errors)) continue;
      if (property) this.check(item, this.checker.getTypeOfSymbol(property), `${prefix}${key}`, errors);
      else if (index) this.check(item, index.type, `${prefix}${key}`, errors);
      else errors.push(`${prefix}property ${key} should not exist`);
    }
    for (const [key, property] of properties) {
      if (!(property.flags & ts.SymbolFlags.Optional) && record[key] === undefined) {
        errors.push(`${prefix}${key} should not be null or undefined`);
      }
    }
  }
}
