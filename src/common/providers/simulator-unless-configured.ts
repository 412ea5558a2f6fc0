import { FactoryProvider, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';

/**
 * Binds an outside platform's port (voice, messaging) to its simulator unless the configuration names the real
 * platform, so a fresh checkout runs without credentials and the rules above the port never know which carries
 * the traffic. `route` lets a port keep the simulator within reach as well (test-mode calls always play on it).
 */
export function simulatorUnlessConfigured<P>(options: {
  provide: abstract new (...args: never[]) => P;
  simulator: Type<P>;
  real: Type<P>;
  useReal: (config: AppConfig) => boolean;
  route?: (chosen: P, simulator: P) => P;
}): FactoryProvider<P> {
  const { provide, simulator, real, useReal, route = (chosen: P) => chosen } = options;
  return {
    provide,
    inject: [APP_CONFIG, simulator, real],
    useFactory: (config: AppConfig, sim: P, live: P) => route(useReal(config) ? live : sim, sim),
  };
}
