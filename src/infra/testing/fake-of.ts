/**
 * A typed stand-in for a collaborator of the unit under test (a repository, a port, a command): it has exactly the
 * members given, and touching any other one throws, naming it. So a unit spec states every collaborator it relies
 * on, and a rule that starts reading or writing something new fails its spec instead of passing on a silent stub.
 */
export function fakeOf<T extends object>(members: Partial<T> = {}, name = 'fake'): T {
  return new Proxy(members, {
    get(target, property) {
      if (property in target) return Reflect.get(target, property) as unknown;
      // Awaiting or logging a fake looks for these: it is neither a promise nor special.
      if (property === 'then' || typeof property === 'symbol' || property === 'toJSON') return undefined;
      throw new Error(`${name}.${property} is not faked: give it to fakeOf if the unit under test needs it`);
    },
  }) as T;
}
