import { EntityManager, EntityTarget, FindOptionsWhere } from 'typeorm';
import { ApiError } from '../errors/api-error';

/** A per-organization cap on a resource listed without pagination (documented in the README limits table). */
export interface OrganizationCap<E extends { organizationId: string }> {
  entity: EntityTarget<E>;
  max: number;
  /** First key of the two-key advisory lock: one per capped resource, so it never collides with another lock. */
  lockSpace: number;
  refusal: () => ApiError;
}

/**
 * Refuses a create once the organization has `max` rows. Counting under a per-organization transaction lock
 * makes the cap hold under concurrent creates: the second transaction counts only after the first committed.
 * Call it first in the transaction that inserts.
 */
export async function assertBelowCap<E extends { organizationId: string }>(
  m: EntityManager,
  cap: OrganizationCap<E>,
  organizationId: string,
): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [cap.lockSpace, organizationId]);
  const count = await m.count(cap.entity, { where: { organizationId } as FindOptionsWhere<E> });
  if (count >= cap.max) throw cap.refusal();
}
