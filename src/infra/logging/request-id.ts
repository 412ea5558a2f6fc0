import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ids = new WeakMap<IncomingMessage, string>();
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is sane, else a new UUID. Memoised per raw request so
 * Fastify and the HTTP logger agree on it.
 */
export function requestIdFor(req: IncomingMessage): string {
  let id = ids.get(req);
  if (!id) {
    const given = req.headers['x-request-id'];
    id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
    ids.set(req, id);
  }
  return id;
}
