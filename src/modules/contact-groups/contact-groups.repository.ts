import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { World, worldSql, worldWhere } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { ContactGroup } from './contact-group.entity';
import { ContactGroupMember } from './contact-group-member.entity';

/** The SQL of `contact_groups` and of their memberships (`contact_group_members`). */
@Injectable()
export class ContactGroupsRepository {
  constructor(@InjectRepository(ContactGroup) private readonly groups: Repository<ContactGroup>) {}

  /** The organization's groups, newest first, each counting the members of one world (one query, by join). */
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

  insert(tx: Tx, organizationId: string, name: string): Promise<ContactGroup> {
    return tx.save(tx.create(ContactGroup, { id: uuidv7(), organizationId, name }));
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
}
