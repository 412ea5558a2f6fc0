/**
 * A Map of at most `bound` entries: setting a key puts it last, and past the bound the entry set longest ago goes
 * (a Map iterates in insertion order). Set a key again on each use and it is the least recently used that goes.
 * For the per-process caches of values that never change under their key, which must not grow with the tenants.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly bound: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.bound) super.delete(this.keys().next().value as K);
    return this;
  }
}
