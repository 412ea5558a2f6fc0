import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { inTransaction, Tx } from '../../infra/database/tx';
import { ContactGroup } from './contact-group.entity';
import { ContactGroupsRepository } from './contact-groups.repository';
import { World } from '../../common/auth/world';

/**
 * The list is not paginated and counts every group's members, so its length is capped (README limits table,
 * OpenAPI). 100 groups covers segmenting a contact base by team, region and campaign many times over.
 */
export const MAX_CONTACT_GROUPS = 100;
const CONTACT_GROUP_CAP: OrganizationCap<ContactGroup> = {
  entity: ContactGroup,
  max: MAX_CONTACT_GROUPS,
  lockSpace: 'contactGroupsCap',
  refusal: () =>
    new ApiError('MAX_CONTACT_GROUPS', `An organization can have at most ${MAX_CONTACT_GROUPS} contact groups`),
};

/** Contact groups: the per-organization cap on creating one, and the reads and writes of ContactGroupsRepository. */
@Injectable()
export class ContactGroupsService {
  constructor(
    private readonly groups: ContactGroupsRepository,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Every group of the organization with its member count (configuration, counting the members of one world:
   * data), newest first. Not paginated (the spec shows `data` only), so capped per organization
   * (MAX_CONTACT_GROUPS).
   */
  listWithCounts(world: World): Promise<Array<{ group: ContactGroup; contactCount: number }>> {
    return this.groups.listWithCounts(world);
  }

  /** The subset of `ids` that are groups of this organization. */
  existingIds(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    return this.groups.existingIds(organizationId, ids);
  }

  /** Makes `groupIds` a contact's whole membership, in the transaction that writes the contact. */
  setMemberships(tx: Tx, contactId: string, groupIds: readonly string[]): Promise<void> {
    return this.groups.setMemberships(tx, contactId, groupIds);
  }

  create(organizationId: string, name: string): Promise<ContactGroup> {
    return inTransaction(this.dataSource, async (tx) => {
      await assertBelowCap(tx, CONTACT_GROUP_CAP, organizationId);
      return this.groups.insert(tx, organizationId, name);
    });
  }
}
