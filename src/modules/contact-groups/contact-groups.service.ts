import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OrganizationCap, assertBelowCap } from '../../common/limits/organization-cap';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { inTransaction, Tx } from '../../infra/database/tx';
import { ContactGroup } from './contact-group.entity';
import { ContactGroupMember } from './contact-group-member.entity';
import { World, worldSql, worldWhere } from '../../common/auth/world';

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

@Injectable()
export class ContactGroupsService {
  constructor(
    @InjectRepository(ContactGroup) private readonly groups: Repository<ContactGroup>,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Every group of the organization with its member count, newest first (one query, counts by join). Not
   * paginated (the spec shows `data` only), so capped per organization (MAX_CONTACT_GROUPS).
   */
  /** The organization's groups (configuration), each counting the members of one world (data). */
  async listWithCounts(world: World): Promise<Array<{ group: ContactGroup; contactCount: number }>> {
    const { entities, raw } = await this.groups
      .createQueryBuilder('g')
      .leftJoin(
        ContactGroupMember,
        'm',
        `m.group_id = g.id AND EXISTS (SELECT 1 FROM contacts c WHERE c.id = m.contact_id AND ${worldSql('c')})`,
      )
      .addSelect('COUNT(m.contact_id)::int', 'contact_count')
      .where('g.organization_id = :organizationId', worldWhere(world))
      .groupBy('g.id')
      .orderBy('g.created_at', 'DESC')
      .addOrderBy('g.id', 'DESC')
      .getRawAndEntities();
    return entities.map((group, i) => ({ group, contactCount: Number(raw[i].contact_count) }));
  }

  /** The subset of `ids` that are groups of this organization. */
  async existingIds(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.groups.find({ where: { organizationId, id: In([...ids]) }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  /** Makes `groupIds` a contact's whole membership, in the transaction that writes the contact. */
  async setMemberships(tx: Tx, contactId: string, groupIds: readonly string[]): Promise<void> {
    await tx.delete(ContactGroupMember, { contactId });
    if (groupIds.length)
      await tx.insert(
        ContactGroupMember,
        groupIds.map((groupId) => ({ groupId, contactId })),
      );
  }

  create(organizationId: string, name: string): Promise<ContactGroup> {
    return inTransaction(this.dataSource, async (m) => {
      await assertBelowCap(m, CONTACT_GROUP_CAP, organizationId);
      return m.save(m.create(ContactGroup, { id: uuidv7(), organizationId, name }));
    });
  }
}
