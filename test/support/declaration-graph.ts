import ts from 'typescript';

/**
 * One type of an SDK's declarations, as much of it as DeclarationSchema judges a value by. Types refer to each other
 * by their index in `DeclarationGraph.nodes`, so recursive declarations stay finite.
 * - `any`: anything passes (`any`, `unknown`, and kinds no JSON value is checked against: `never`, `bigint`, ...).
 * - `union`: its members in declaration order (the first best fit is the one reported), `undefined` among them.
 * - `literal`: one string or number (an enum member too); `true` / `false`: one boolean.
 * - `array`: arrays and tuples, each item judged by the (first) element type.
 * - `object`: interfaces, object literals and intersections: properties in declaration order with whether each is
 *   optional, and the type of a string index signature if there is one.
 */
export type TypeNode =
  | { kind: 'any' | 'undefined' | 'null' | 'string' | 'number' | 'boolean' | 'true' | 'false' }
  | { kind: 'union'; members: number[] }
  | { kind: 'literal'; value: string | number }
  | { kind: 'array'; element: number }
  | { kind: 'object'; properties: Array<{ name: string; type: number; optional: boolean }>; index?: number };

/** An SDK's exported interfaces and type aliases, by name, over the graph of every type they reach. */
export interface DeclarationGraph {
  exports: Record<string, number>;
  nodes: TypeNode[];
}

/**
 * Reads the declaration file `entry` (and all it imports) with the TypeScript compiler, as strict as the providers'
 * SDK users compile, and describes every exported interface and type alias. Building the program reads thousands of
 * declaration files (seconds of CPU and hundreds of MB), so it runs once per SDK version (sdk-declarations.ts).
 */
export function describeDeclarations(entry: string): DeclarationGraph {
  const program = ts.createProgram([entry], { strict: true, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const nodes: TypeNode[] = [];
  const ids = new Map<ts.Type, number>();

  const id = (type: ts.Type | undefined): number => {
    if (!type) return id(checker.getAnyType());
    const known = ids.get(type);
    if (known !== undefined) return known;
    const index = nodes.push({ kind: 'any' }) - 1;
    ids.set(type, index);
    nodes[index] = describe(type);
    return index;
  };

  // The order of these tests is the order in which a value is judged (declaration-schema.ts).
  const describe = (type: ts.Type): TypeNode => {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { kind: 'any' };
    if (type.isUnion()) return { kind: 'union', members: type.types.map(id) };
    if (f & ts.TypeFlags.Undefined) return { kind: 'undefined' };
    if (f & ts.TypeFlags.Null) return { kind: 'null' };
    if (type.isStringLiteral() || type.isNumberLiteral()) return { kind: 'literal', value: type.value };
    if (f & ts.TypeFlags.BooleanLiteral) return { kind: checker.typeToString(type) === 'true' ? 'true' : 'false' };
    if (f & ts.TypeFlags.StringLike) return { kind: 'string' };
    if (f & ts.TypeFlags.NumberLike) return { kind: 'number' };
    if (f & ts.TypeFlags.BooleanLike) return { kind: 'boolean' };
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      return { kind: 'array', element: id(checker.getTypeArguments(type as ts.TypeReference)[0]) };
    }
    if (f & ts.TypeFlags.Object || type.isIntersection()) {
      const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
      return {
        kind: 'object',
        properties: checker.getPropertiesOfType(type).map((p) => ({
          name: p.name,
          type: id(checker.getTypeOfSymbol(p)),
          optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
        })),
        ...(index ? { index: id(index.type) } : {}),
      };
    }
    return { kind: 'any' };
  };

  const exports: Record<string, number> = {};
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  for (const symbol of checker.getExportsOfModule(module)) {
    const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (resolved.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
      exports[symbol.name] = id(checker.getDeclaredTypeOfSymbol(resolved));
    }
  }
  return { exports, nodes };
}
