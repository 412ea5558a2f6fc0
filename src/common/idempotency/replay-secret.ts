import type { World } from '../auth/world';
import { createHash } from 'node:crypto';
import { ApiError } from '../errors/api-error';

/** Reads the live secret of a created resource, so a replay can tell whether the one it answered is still valid. */
export interface ReplaySecretSource {
  currentSecret(world: World, resourceId: string): Promise<string | null>;
}

export const IDEMPOTENT_SECRET_SOURCE = 'idempotent:secretSource';

type WithSecret = { data: { id: string; secret: string } };

const digest = (secret: string) => `sha256:${createHash('sha256').update(secret).digest('hex')}`;

function carriesSecret(body: unknown): body is WithSecret {
  const data = (body as { data?: { id?: unknown; secret?: unknown } } | null)?.data;
  return typeof data?.id === 'string' && typeof data.secret === 'string';
}

/** The response as the idempotency table keeps it: the secret replaced by its SHA-256, never in plain text. */
export function withholdSecret(body: unknown): unknown {
  return carriesSecret(body) ? { ...body, data: { ...body.data, secret: digest(body.data.secret) } } : body;
}

/**
 * The stored response with its secret back, read from the resource: only while the live secret is the one first
 * answered. A rotated secret or a deleted resource is a 409, so a replay never reveals a dead secret.
 */
export async function restoreSecret(body: unknown, world: World, source: ReplaySecretSource): Promise<unknown> {
  if (!carriesSecret(body)) return body;
  const live = await source.currentSecret(world, body.data.id);
  if (live === null || digest(live) !== body.data.secret) {
    throw new ApiError(
      'CONFLICT',
      'The resource created with this Idempotency-Key has since been deleted or had its secret rotated; ' +
        'its secret is not shown again',
    );
  }
  return { ...body, data: { ...body.data, secret: live } };
}
