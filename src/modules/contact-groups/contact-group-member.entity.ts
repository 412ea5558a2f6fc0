import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { ContactGroup } from './contact-group.entity';

/**
 * Membership of a contact in a group, owned by the contact-groups module: it sets memberships (for the contacts
 * module's `groupIds`) and counts them (`contactCount`). Deleting a contact or a group removes its memberships (and
 * nothing else). The contact is named by entity name, not class, so this module does not import the contacts
 * module that imports it.
 */
@Entity('contact_group_members')
export class ContactGroupMember {
  @ForeignKey(() => ContactGroup, { name: 'fk_contact_group_members_group', onDelete: 'CASCADE' })
  @PrimaryColumn('uuid')
  groupId: string;

  @ForeignKey('Contact', { name: 'fk_contact_group_members_contact', onDelete: 'CASCADE' })
  @Index()
  @PrimaryColumn('uuid')
  contactId: string;
}
