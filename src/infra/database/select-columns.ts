/**
 * The `alias.property` list for a query builder's `select`, checked against the entity: a list endpoint reads
 * only what its response shows (plus its keyset), so a large column added later is never read by accident.
 */
export function selectColumns<E>(alias: string, properties: ReadonlyArray<keyof E & string>): string[] {
  return properties.map((p) => `${alias}.${p}`);
}
