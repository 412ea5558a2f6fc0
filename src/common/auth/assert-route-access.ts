import { INestApplication } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ACCESS_KEY } from './access.decorators';

/** Nest's route metadata keys (not exported from @nestjs/common's root). */
const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';

/**
 * Default-deny, checked at start-up: every route handler must declare who may call it. A route that forgets
 * is a boot failure naming it, not a silently open endpoint.
 */
export function assertEveryRouteDeclaresAccess(app: INestApplication): void {
  const discovery = app.get(DiscoveryService, { strict: false });
  const scanner = app.get(MetadataScanner, { strict: false }) ?? new MetadataScanner();
  const undeclared: string[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
    if (!controller) continue;
    const classAccess = Reflect.getMetadata(ACCESS_KEY, controller);
    for (const method of scanner.getAllMethodNames(controller.prototype)) {
      const handler = controller.prototype[method];
      if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      if (!classAccess && !Reflect.getMetadata(ACCESS_KEY, handler)) undeclared.push(`${controller.name}.${method}`);
    }
  }
  if (undeclared.length) throw new Error(`Routes without an access rule: ${undeclared.join(', ')}`);
}
