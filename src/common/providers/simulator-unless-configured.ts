import { FactoryProvider, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';

/**
 * Binds an outside platform's port to its simulator unless the configuration names the real platform, so a fresh
 * checkout runs without credentials and the rules above the port never know which carries the traffic.
 */
export function simulatorUnlessConfigured<P>(options: {
  provide: abstract new (...args: never[]) => P;
  simulator: Type<P>;
  real: Type<P>;
  useReal: (config: AppConfig) => boolean;
}): FactoryProvider<P> {
  const { provide, simulator, real, useReal } = options;
  return {
    provide,
    inject: [APP_CONFIG, simulator, real],
    useFactory: (config: AppConfig, sim: P, live: P) => (useReal(config) ? live : sim),
  };
}
