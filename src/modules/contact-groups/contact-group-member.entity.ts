import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Contact } from '../contacts/contact.entity';
import { ContactGroup } from './contact-group.entity';

/**
 * Membership of a contact in a group. The contacts module sets memberships (`groupIds`); the contact-groups
 * module counts them (`contactCount`). Deleting a contact or a group removes its memberships (and nothing else).
 */
@Entity('contact_group_members')
export class ContactGroupMember {
  @ForeignKey(() => ContactGroup, { name: 'fk_contact_group_members_group', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  groupId: string;

  @ForeignKey(() => Contact, { name: 'fk_contact_group_members_contact', onDelete: 'CASCADE' })
  @Index()
  @PrimaryColumn('uuid')
  contactId: string;
}
