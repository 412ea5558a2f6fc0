import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { IdParamPipe } from '../ids/id-param.pipe';
import { World } from './world';

type ConsoleRequest = FastifyRequest<{ Params: { orgId?: string }; Querystring: { livemode?: string } }>;

const ids = new IdParamPipe();

/**
 * The world a console route names: its `:orgId` and the Test / Live switch `?livemode=` (false is the
 * organization's test data, true or nothing its live data). Whether the organization exists is checked by the
 * route's ExistingWorldPipe; this only reads the request, so the idempotency interceptor can key a console
 * create by world before the route runs, as it keys an API create by the key's world.
 */
export function consoleRequestWorld(request: FastifyRequest): World {
  const { params, query } = request as ConsoleRequest;
  const raw = query.livemode;
  if (raw !== undefined && raw !== 'true' && raw !== 'false') {
    throw ApiError.validation('livemode', 'livemode must be true or false');
  }
  return { organizationId: ids.transform(params.orgId ?? ''), livemode: raw !== 'false' };
}
