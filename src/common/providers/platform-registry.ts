/**
 * Adapters of one kind keyed by the platform a row stores: a row gets the adapter of the platform it was made on,
 * never the one the process settings name now. Typed by the platform list, so a platform without an adapter does
 * not compile. Each kind (voice, messaging) subclasses it once with its adapters.
 */
export abstract class PlatformRegistry<Platform extends string, Adapter> {
  protected constructor(private readonly adapters: Readonly<Record<Platform, Adapter>>) {}

  /** The adapter of the platform the row was made on. */
  of(row: { platform: Platform }): Adapter {
    return this.adapters[row.platform];
  }
}
