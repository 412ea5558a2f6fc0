import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { World, worldParams, worldSql, worldWhere } from '../../common/auth/world';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { selectColumns } from '../../infra/database/select-columns';
import type { Statement } from '../../infra/database/statement';
import { Tx } from '../../infra/database/tx';
import { Contact } from './contact.entity';
import { NAME_SQL, PHONE_DIGITS_SQL, escapeLike, phoneDigitsOf } from './contact-text-match';

/** A contact named in its world (a read of many worlds' contacts at once). */
export interface ContactKey {
  world: World;
  id: string;
}

/** What the list filters by; every field optional, all of them combined with AND. */
export interface ContactFilters {
  /** The name contains it, or (when it holds digits) the phone's digits contain them. */
  search?: string;
  groupId?: string;
  /** Any of them (array overlap). */
  tags?: readonly string[];
}

/** The fields a new contact is given; id and timestamps are the table's. */
export type NewContact = Pick<Contact, 'title' | 'phone' | 'email' | 'notes' | 'tags' | 'customFields'>;

/** A contact as a campaign dials it: its phone, and the time zone its custom fields name (if any, unchecked). */
export interface DialTarget {
  id: string;
  phone: string;
  /** What a case variable may read from the contact (`contact.title` …), checked before a campaign stores it. */
  title: string;
  email: string | null;
  notes: string | null;
  zone: unknown;
}

const DIAL_TARGET = `c.id, c.phone, c.title, c.email, c.notes, COALESCE(c.custom_fields->'timeZone', c.custom_fields->'timezone') #>> '{}' AS zone`;

/** What the insert of a new contact returns: nothing when the phone was taken. */
export type InsertedTimes = { created_at: Date; updated_at: Date }[];

/** The new contact with the timestamps its insert returned, or null when it inserted nothing. */
export function withTimes(contact: Contact, inserted: InsertedTimes): Contact | null {
  if (!inserted.length) return null;
  contact.createdAt = inserted[0].created_at;
  contact.updatedAt = inserted[0].updated_at;
  return contact;
}

/** The SQL of `contacts` (the ranked search is ContactSearchRepository's). */
@Injectable()
export class ContactsRepository {
  constructor(@InjectRepository(Contact) private readonly contacts: Repository<Contact>) {}

  /** The world's contacts passing `filters`, list columns only, for keyset pagination (alias `c`). */
  listQuery(world: World, filters: ContactFilters): SelectQueryBuilder<Contact> {
    const qb = this.contacts
      .createQueryBuilder('c')
      // The list shape only: never `customFields` or `notes` (up to 16 KB and 5,000 characters a contact).
      .select(selectColumns<Contact>('c', ['id', 'title', 'phone', 'email', 'tags', 'createdAt', 'livemode']))
      .where(worldSql('c'), worldWhere(world));
    const { search, groupId, tags } = filters;
    if (search) {
      const digits = phoneDigitsOf(search);
      qb.andWhere(
        new Brackets((w) => {
          w.where(`${NAME_SQL('c')} LIKE :nameLike`, { nameLike: `%${escapeLike(search.toLowerCase())}%` });
          if (digits) w.orWhere(`${PHONE_DIGITS_SQL('c')} LIKE :digitsLike`, { digitsLike: `%${digits}%` });
        }),
      );
    }
    if (groupId) {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM contact_group_members m WHERE m.contact_id = c.id AND m.group_id = :groupId)`,
        {
          groupId,
        },
      );
    }
    // ANY-match: a contact qualifies when it carries at least one of the requested tags (array overlap, GIN-indexed).
    if (tags?.length) qb.andWhere('c.tags && :tags::text[]', { tags });
    return qb;
  }

  /** The world's contact, read by `manager` when the caller holds a transaction; null when there is none. */
  find(world: World, id: string, manager: EntityManager = this.contacts.manager): Promise<Contact | null> {
    return manager.findOneBy(Contact, { ...worldWhere(world), id });
  }

  /** The contact of each key in the key's world, in one statement; null where the world holds no such contact. */
  async findMany(keys: ReadonlyArray<ContactKey>): Promise<Array<Contact | null>> {
    const rows = await this.contacts.findBy(keys.map(({ world, id }) => ({ ...worldWhere(world), id })));
    const byId = new Map(rows.map((c) => [c.id, c]));
    return keys.map(({ world, id }) => {
      const c = byId.get(id);
      return c && c.organizationId === world.organizationId && c.livemode === world.livemode ? c : null;
    });
  }

  /** The world's contacts among `ids`, as dialled, read by `manager` (the caller's transaction). */
  dialTargets(manager: EntityManager, world: World, ids: readonly string[]): Promise<DialTarget[]> {
    return manager.query(`SELECT ${DIAL_TARGET} FROM contacts c WHERE c.id = ANY($1) AND ${worldSql('c', 2)}`, [
      ids,
      ...worldParams(world),
    ]);
  }

  /** The world's members of the group, oldest first, at most `limit`, read by `manager`. */
  groupDialTargets(manager: EntityManager, world: World, groupId: string, limit: number): Promise<DialTarget[]> {
    return manager.query(
      `SELECT ${DIAL_TARGET} FROM contacts c JOIN contact_group_members g ON g.contact_id = c.id
        WHERE g.group_id = $1 AND ${worldSql('c', 2)} ORDER BY c.created_at, c.id LIMIT $4`,
      [groupId, ...worldParams(world), limit],
    );
  }

  /**
   * The new contact as stored, or null when the world already has a contact with its phone. ON CONFLICT DO
   * NOTHING: a concurrent insert of the same phone waits for the first to commit, then inserts nothing, without
   * an aborted statement (so `tx` goes on). One plain statement: TypeORM's insert builder cost more CPU per
   * create than the statement itself (a profile of POST /contacts, BENCHMARKS.md).
   */
  async insert(tx: Tx, world: World, fields: NewContact): Promise<Contact | null> {
    const { contact, statement } = this.insertStatement(world, fields);
    return withTimes(contact, await tx.query(statement.sql, statement.params));
  }

  /**
   * The insert of `insert` as a statement for the caller to run (with its events, in one round trip: the
   * outbox's `recordWithChange`), and the contact it makes; `withTimes` completes the contact from its result.
   */
  insertStatement(world: World, fields: NewContact): { contact: Contact; statement: Statement } {
    const contact = this.contacts.create({ id: uuidv7(), ...worldWhere(world), ...fields });
    const sql = `INSERT INTO contacts (id, organization_id, livemode, title, phone, email, notes, tags, custom_fields)
       VALUES ($1, $2, $9, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING created_at, updated_at`;
    const params = [
      contact.id,
      world.organizationId,
      contact.title,
      contact.phone,
      contact.email,
      contact.notes,
      contact.tags,
      JSON.stringify(contact.customFields),
      world.livemode,
    ];
    return { contact, statement: { sql, params } };
  }

  /**
   * The world's contact with this (E.164) phone, inserted with `title` when there is none; `inserted` tells
   * which. Safe against concurrent callers for one phone (the loser's insert does nothing, then reads the row).
   */
  async findOrInsertByPhone(
    tx: Tx,
    world: World,
    phone: string,
    title: string,
  ): Promise<{ contact: Contact; inserted: boolean }> {
    const inserted: unknown[] = await tx.query(
      `INSERT INTO contacts (id, organization_id, livemode, title, phone) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, livemode, phone) DO NOTHING RETURNING id`,
      [uuidv7(), world.organizationId, world.livemode, title, phone],
    );
    const contact = await tx.findOneByOrFail(Contact, { ...worldWhere(world), phone });
    return { contact, inserted: inserted.length > 0 };
  }

  /** The world's contact locked `FOR UPDATE` until `tx` ends, or null. */
  lock(tx: Tx, world: World, id: string): Promise<Contact | null> {
    return tx.findOne(Contact, { where: { ...worldWhere(world), id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The world's contact with this phone, or null. */
  findByPhone(tx: Tx, world: World, phone: string): Promise<Contact | null> {
    return tx.findOneBy(Contact, { ...worldWhere(world), phone });
  }

  /** Whether the world has a contact with this phone (the unique index still decides races). */
  phoneTaken(tx: Tx, world: World, phone: string): Promise<boolean> {
    return tx.existsBy(Contact, { ...worldWhere(world), phone });
  }

  /** Writes a contact read by `lock` in the same `tx`; the row as saved. */
  save(tx: Tx, contact: Contact): Promise<Contact> {
    return tx.save(contact);
  }

  async delete(tx: Tx, world: World, id: string): Promise<void> {
    await tx.delete(Contact, { ...worldWhere(world), id });
  }
}
