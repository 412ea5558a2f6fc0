import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Membership of a contact in a group. The contacts module sets memberships (`groupIds`); the contact-groups
 * module counts them (`contactCount`).
 */
@Entity('contact_group_members')
export class ContactGroupMember {
  @PrimaryColumn('uuid') groupId: string;
  @Index() @PrimaryColumn('uuid') contactId: string;
}
