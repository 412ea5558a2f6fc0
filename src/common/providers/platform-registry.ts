/**
 * Adapters of one kind keyed by the platform a row stores: a row gets the adapter of the platform it was made on,
 * never the one the process settings name now. Typed by the platform list, so a platform without an adapter does
 * not compile. Each kind subclasses it once. A kind whose adapters live in the platform layer
 * (src/modules/platforms) is bound by that layer's module (`bind`), so the domain owning the registry never
 * imports its adapters: the platform layer depends on the domain, not the reverse.
 */
export abstract class PlatformRegistry<Platform extends string, Adapter> {
  private adapters: Readonly<Record<Platform, Adapter>> | undefined;

  protected constructor(adapters?: Readonly<Record<Platform, Adapter>>) {
    this.adapters = adapters;
  }

  /** Hands the registry every platform's adapter, once (the platform layer's module, when it is built). */
  bind(adapters: Readonly<Record<Platform, Adapter>>): void {
    if (this.adapters) throw new Error(`${this.constructor.name} is bound already`);
    this.adapters = adapters;
  }

  /** The adapter of the platform the row was made on. */
  of(row: { platform: Platform }): Adapter {
    if (!this.adapters) throw new Error(`${this.constructor.name} has no adapters: its platform module is not loaded`);
    return this.adapters[row.platform];
  }
}
