import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * Whose data a request reaches: one organization's records of one world (README: "Test and live"). A `test`
 * key's world is the organization's test data, a `live` key's its live data; the two are kept apart as two
 * organizations are. Per-world tables carry `organization_id` and `livemode`, and every read or write of them is
 * scoped by both through `worldWhere` / `worldSql` below, never by the organization alone.
 */
export interface World {
  readonly organizationId: string;
  readonly livemode: boolean;
}

/** The world bound to the request's API key (like `@OrgId()`, never taken from input). */
export const KeyWorld = createParamDecorator((_: unknown, ctx: ExecutionContext): World => {
  const auth = ctx.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new Error('KeyWorld used on a route without API-key authentication');
  return { organizationId: auth.organizationId, livemode: auth.livemode };
});

/** The world's columns as TypeORM `where` conditions: spread them into any find of a per-world table. */
export function worldWhere(world: World): { organizationId: string; livemode: boolean } {
  return { organizationId: world.organizationId, livemode: world.livemode };
}

/** Whether a row read without the world's condition (a lock by id) belongs to the world. */
export function inWorld(row: World, world: World): boolean {
  return row.organizationId === world.organizationId && row.livemode === world.livemode;
}

/**
 * The world's condition in SQL, for query builders and raw statements: `worldSql('c', 1)` is
 * `c.organization_id = $1 AND c.livemode = $2`, bound with `worldParams(world)`; without a position it names
 * `:organizationId` / `:livemode` for a query builder's parameters (`worldWhere(world)`).
 */
export function worldSql(alias?: string, position?: number): string {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  return position === undefined
    ? `${col('organization_id')} = :organizationId AND ${col('livemode')} = :livemode`
    : `${col('organization_id')} = $${position} AND ${col('livemode')} = $${position + 1}`;
}

/** The values `worldSql(alias, position)` binds, in order. */
export function worldParams(world: World): [string, boolean] {
  return [world.organizationId, world.livemode];
}
