import type { FastifyRequest } from 'fastify';

/**
 * What the access guard needs from the console module: does this request carry a valid console session (cookie,
 * plus the CSRF header on unsafe methods)? Throws an ApiError when a session cookie is present but unusable;
 * returns false when there is no session cookie at all, so the guard can fall back to the bearer token.
 */
export abstract class ConsoleSessionVerifier {
  abstract verify(request: FastifyRequest): Promise<boolean>;
}
