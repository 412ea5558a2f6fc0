import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { Page } from '../../common/pagination/pagination.dto';
import { toE164 } from '../../common/validation/e164';
import { ContactGroupsService } from '../contact-groups/contact-groups.service';
import type { EventFamily } from '../outbox/event-bodies';
import { OutboxService, type PendingEvent } from '../outbox/outbox.service';
import { Contact } from './contact.entity';
import { ContactListItemResponse, ContactResponse } from './contact.response';
import {
  ContactKey,
  ContactsRepository,
  DialTarget,
  InsertedTimes,
  NewContact,
  withTimes,
} from './contacts.repository';
import { CreateContactDto } from './dto/create-contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';
import { UpdateContactDto } from './dto/update-contact.dto';
import { isForeignKeyViolation, isUniqueViolation } from '../../infra/database/pg-errors';
import { inTransaction, Tx } from '../../infra/database/tx';

const PHONE_UNIQUE = 'ux_contacts_org_phone';
const MEMBER_GROUP_FK = 'fk_contact_group_members_group';
/** The refusal of a create or update naming groups the organization does not have. */
export const groupsRefused = (missing: readonly string[]) =>
  ApiError.validation('groupIds', `not contact groups of this organization: ${missing.join(', ')}`);
const phoneTaken = () => ApiError.conflict('A contact with this phone already exists in the organization');

@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contacts: ContactsRepository,
    private readonly groups: ContactGroupsService,
    private readonly outbox: OutboxService,
    private readonly cursors: CursorCodec,
  ) {}

  async list(world: World, query: ListContactsQueryDto): Promise<Page<ContactListItemResponse>> {
    const search = query.search?.trim() || undefined;
    const tags = query.tags?.length ? query.tags : undefined;
    const qb = this.contacts.listQuery(world, { search, groupId: query.groupId, tags });
    return keysetPaginate(qb, {
      alias: 'c',
      limit: query.limit,
      cursor: query.cursor,
      filters: { search, groupId: query.groupId, tags },
      codec: this.cursors,
      map: ContactListItemResponse.from,
    });
  }

  /** The contact, or null when the world holds no such contact. */
  find(world: World, id: string): Promise<Contact | null> {
    return this.contacts.find(world, id);
  }

  /** The contacts of `keys`, each in its world, in one read; null where there is none. */
  findMany(keys: ReadonlyArray<ContactKey>): Promise<Array<Contact | null>> {
    return this.contacts.findMany(keys);
  }

  get(world: World, id: string): Promise<Contact> {
    return this.read(world, id);
  }

  /** The same read in the caller's transaction (a required `Tx`: call creation holds one while it reads). */
  getIn(tx: Tx, world: World, id: string): Promise<Contact> {
    return this.read(world, id, tx);
  }

  private async read(world: World, id: string, tx?: Tx): Promise<Contact> {
    const contact = await this.contacts.find(world, id, tx);
    if (!contact) throw ApiError.notFound('Contact');
    return contact;
  }

  /** For a campaign's audience: the world's contacts among `ids` as dialled, read in the caller's `manager`. */
  dialTargets(manager: EntityManager, world: World, ids: readonly string[]): Promise<DialTarget[]> {
    return this.contacts.dialTargets(manager, world, ids);
  }

  /** For a campaign's audience: the world's members of the group as dialled, oldest first, at most `limit`. */
  groupDialTargets(manager: EntityManager, world: World, groupId: string, limit: number): Promise<DialTarget[]> {
    return this.contacts.groupDialTargets(manager, world, groupId, limit);
  }

  async create(world: World, dto: CreateContactDto): Promise<Contact> {
    if (!dto.groupIds?.length) return this.createAlone(world, dto);
    await this.assertGroups(world.organizationId, dto.groupIds);
    return this.mappingConstraints(() =>
      inTransaction(this.dataSource, async (m) => {
        const contact = await this.createIn(m, world, dto);
        if (!contact) throw phoneTaken();
        return contact;
      }),
    );
  }

  /**
   * A contact without groups is one row and one event: the insert and the event go in one statement, one round
   * trip instead of four (BEGIN, insert, event, COMMIT), the busiest write of an import or a CRM sync.
   */
  private async createAlone(world: World, dto: CreateContactDto): Promise<Contact> {
    const { contact, statement } = this.contacts.insertStatement(world, newContactOf(dto));
    const inserted = await this.mappingConstraints(() =>
      this.outbox.recordWithChange<InsertedTimes[number]>(statement, [eventOf('contact.created', contact)]),
    );
    const created = withTimes(contact, inserted);
    if (!created) throw phoneTaken();
    return created;
  }

  /**
   * Many creates in one transaction (POST /contacts/batch): `write` gets the create of one contact, which answers
   * null when the world already has a contact with its phone (an earlier row of the same batch included). The
   * groups named are checked first, once for all rows.
   */
  async createMany<T>(
    world: World,
    groupIds: readonly string[],
    write: (tx: Tx, missingGroups: ReadonlySet<string>) => Promise<T>,
  ): Promise<T> {
    const found = groupIds.length ? await this.groups.existingIds(world.organizationId, [...new Set(groupIds)]) : null;
    const missing = new Set(groupIds.filter((id) => !found?.has(id)));
    return this.mappingConstraints(() => inTransaction(this.dataSource, (m) => write(m, missing)));
  }

  /** One create with its memberships and `contact.created` event in `tx`; null when the phone is taken (nothing written). */
  async createIn(tx: Tx, world: World, dto: CreateContactDto): Promise<Contact | null> {
    const contact = await this.contacts.insert(tx, world, newContactOf(dto));
    if (!contact) return null;
    // A new contact has no memberships to replace: only insert (saves a DELETE round trip per create).
    if (dto.groupIds?.length) await this.groups.setMemberships(tx, contact.id, dto.groupIds);
    await this.recordEvent(tx, 'contact.created', contact);
    return contact;
  }

  /** The id of the world's contact with this phone, read in `tx`. */
  async idByPhone(tx: Tx, world: World, phone: string): Promise<string | null> {
    return (await this.contacts.findByPhone(tx, world, phone))?.id ?? null;
  }

  async update(world: World, id: string, dto: UpdateContactDto): Promise<Contact> {
    await this.assertGroups(world.organizationId, dto.groupIds);
    return this.mappingConstraints(() =>
      inTransaction(this.dataSource, async (m) => {
        const contact = await this.contacts.lock(m, world, id);
        if (!contact) throw ApiError.notFound('Contact');
        if (dto.title !== undefined) contact.title = dto.title;
        if (dto.phone !== undefined && dto.phone !== contact.phone) {
          // The common case answered without a failed statement; the unique index still decides races.
          if (await this.contacts.phoneTaken(m, world, dto.phone)) throw phoneTaken();
          contact.phone = dto.phone;
        }
        if (dto.email !== undefined) contact.email = dto.email;
        if (dto.notes !== undefined) contact.notes = dto.notes;
        if (dto.tags !== undefined) contact.tags = dto.tags;
        if (dto.customFields !== undefined) contact.customFields = dto.customFields;
        const saved = await this.contacts.save(m, contact);
        if (dto.groupIds !== undefined) await this.groups.setMemberships(m, id, dto.groupIds);
        await this.recordEvent(m, 'contact.updated', saved);
        return saved;
      }),
    );
  }

  /** Deletes the contact and (by cascade) its group memberships; calls and conversations keep their contact id. */
  async delete(world: World, id: string): Promise<void> {
    await inTransaction(this.dataSource, async (m) => {
      const contact = await this.contacts.lock(m, world, id);
      if (!contact) throw ApiError.notFound('Contact');
      await this.contacts.delete(m, world, id);
      await this.recordEvent(m, 'contact.deleted', contact);
    });
  }

  /**
   * The contact of the world with this phone, created (with `name` as its title, and a `contact.created`
   * event) when there is none. Runs in the caller's transaction; safe against concurrent callers for one phone.
   */
  async findOrCreateByPhone(manager: Tx, world: World, phone: string, name: string): Promise<Contact> {
    const e164 = toE164(phone);
    if (!e164) throw new Error(`findOrCreateByPhone: ${phone} is not an E.164 phone number`);
    const title = name.trim().slice(0, 200) || e164;
    const { contact, inserted } = await this.contacts.findOrInsertByPhone(manager, world, e164, title);
    if (inserted) await this.recordEvent(manager, 'contact.created', contact);
    return contact;
  }

  private async recordEvent(m: Tx, type: EventFamily<'contact'>, contact: Contact): Promise<string> {
    const [eventId] = await this.outbox.recordMany(m, [eventOf(type, contact)]);
    return eventId;
  }

  private async assertGroups(organizationId: string, groupIds: readonly string[] | undefined): Promise<void> {
    if (!groupIds?.length) return;
    const found = await this.groups.existingIds(organizationId, groupIds);
    const missing = groupIds.filter((id) => !found.has(id));
    if (missing.length) throw groupsRefused(missing);
  }

  /** The database enforces phone uniqueness and membership integrity; its verdicts become the API's errors. */
  private async mappingConstraints<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, PHONE_UNIQUE)) {
        throw phoneTaken();
      }
      if (isForeignKeyViolation(error, MEMBER_GROUP_FK)) {
        throw ApiError.validation('groupIds', 'a contact group no longer exists');
      }
      throw error;
    }
  }
}

/** The stored fields of a new contact from its request. */
function newContactOf(dto: CreateContactDto): NewContact {
  return {
    title: dto.title,
    phone: dto.phone,
    email: dto.email ?? null,
    notes: dto.notes ?? null,
    tags: dto.tags ?? [],
    customFields: dto.customFields ?? {},
  };
}

/** The deleted contact's event records the Contact as it was: its row is gone when the webhook is sent. */
function eventOf(type: EventFamily<'contact'>, contact: Contact): PendingEvent {
  if (type === 'contact.deleted') {
    return { owner: contact, type, payload: { contactId: contact.id, contact: { ...ContactResponse.from(contact) } } };
  }
  return { owner: contact, type, payload: { contactId: contact.id } };
}
