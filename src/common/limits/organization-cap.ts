import { EntityManager, EntityTarget, FindOptionsWhere } from 'typeorm';
import { LockSpace, lockForTransaction } from '../../infra/database/advisory-locks';
import { ApiError } from '../errors/api-error';

/** A per-organization cap on a resource listed without pagination (documented in the README limits table). */
export interface OrganizationCap<E extends { organizationId: string }> {
  entity: EntityTarget<E>;
  max: number;
  /** The advisory lock space of this resource's cap (src/infra/database/advisory-locks.ts). */
  lockSpace: LockSpace;
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
  await lockForTransaction(m, cap.lockSpace, organizationId);
  const count = await m.count(cap.entity, { where: { organizationId } as FindOptionsWhere<E> });
  if (count >= cap.max) throw cap.refusal();
}
