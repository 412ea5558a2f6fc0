import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { ContactGroup } from './contact-group.entity';
import { ContactGroupMember } from './contact-group-member.entity';

@Injectable()
export class ContactGroupsService {
  constructor(
    @InjectRepository(ContactGroup) private readonly groups: Repository<ContactGroup>,
  ) {}

  /** Every group of the organization with its member count, newest first (one query, counts by join). */
  async listWithCounts(organizationId: string): Promise<Array<{ group: ContactGroup; contactCount: number }>> {
    const { entities, raw } = await this.groups
      .createQueryBuilder('g')
      .leftJoin(ContactGroupMember, 'm', 'm.group_id = g.id')
      .addSelect('COUNT(m.contact_id)::int', 'contact_count')
      .where('g.organization_id = :organizationId', { organizationId })
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
    return this.groups.save(this.groups.create({ id: uuidv7(), organizationId, name }));
  }
}
