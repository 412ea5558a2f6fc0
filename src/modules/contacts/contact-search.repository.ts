import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { World } from '../../common/auth/world';
import { NAME_SQL, PHONE_DIGITS_SQL, escapeLike } from './contact-text-match';

/** A contact as the search lists it. */
export type ContactSearchRow = { id: string; title: string; phone: string; email: string | null };

const NAME = `${NAME_SQL('c')} COLLATE "C"`;
const DIGITS = `${PHONE_DIGITS_SQL('c')} COLLATE "C"`;
const COLUMNS = 'c.id, c.title, c.phone, c.email';
// $4 is the world's livemode: the names table is the organization's, the contacts read from it the world's.
const CONTACTS = 'contacts c WHERE c.organization_id = $1 AND c.livemode = $4';

/**
 * The SQL of `GET /contacts/search` (over `contacts` and `contact_names`): ranked matches over names and phone digits, best first:
 *   1. exact name or exact phone digits, then name prefix or phone-digits prefix (by name);
 *   2. prefix of a later word of the name ("smi" in "Alice Smith"), by name;
 *   3. substring of the name or of the phone digits, by name;
 *   4. typo-tolerant matches (pg_trgm word similarity, closest first).
 * Within a tier ties go by name, then id. A contact is listed once, in the first tier it matches.
 *
 * One statement: each tier is a CTE that returns at most `limit` rows and runs only when the tiers before it
 * found fewer (a one-time filter on their count), so a common prefix ("ali" among thousands of Alices) costs two
 * ordered btree range scans and nothing else. Tiers 2-4 depend on the name alone: they match the organization's
 * distinct names (`contact_names`, pg_trgm GIN on (organization, name)) and then read each matching name's
 * contacts in id order from the (organization, name, id) btree, so their work grows with the distinct names that
 * match, not with the contacts that carry them. Phone substrings go through the phone digits' GIN index.
 * Two-character queries have no complete trigram for `%xy%`, so they skip the substring tier.
 */
@Injectable()
export class ContactSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** At most `limit` of the world's contacts matching `text` (trimmed, lower case) or its phone `digits`, best first. */
  async search(world: World, text: string, digits: string | null, limit: number): Promise<ContactSearchRow[]> {
    const sql = new SearchSql([world.organizationId, text, limit, world.livemode]);
    const statement = sql.build(text, digits);
    // A named statement: PostgreSQL plans it once per connection instead of once per search (planning the
    // statement cost as much CPU as running it). Its text varies only with which arms the query needs, so each
    // connection holds a handful; every value is a parameter and the prefix ranges are explicit, so the
    // generic plan keeps the btree range scans.
    const name = `contact_search_${createHash('sha1').update(statement).digest('hex').slice(0, 16)}`;
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    const { rows } = await pool.query<ContactSearchRow>({ name, text: statement, values: sql.params });
    return rows;
  }
}

/** The statement for one query text, with its parameters ($1 organization, $2 text, $3 limit, $4 livemode, then its own). */
class SearchSql {
  constructor(readonly params: unknown[]) {}

  private param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  build(text: string, digits: string | null): string {
    const namePrefix = this.param(`${escapeLike(text)}%`);
    // Prefixes also as explicit byte-order ranges, so a plan made without the values still uses the btree.
    const nameRange = this.range(NAME, '$2', text);
    const wordPrefix = this.param(`% ${escapeLike(text)}%`);
    const nameSub = text.length >= 3 ? this.param(`%${escapeLike(text)}%`) : null;
    const exactDigits = digits ? this.param(digits) : null;
    const digitsPrefix = digits ? this.param(`${digits}%`) : null;
    const digitsSub = digits && digits.length >= 3 ? this.param(`%${digits}%`) : null;
    const digitsRange = digits && exactDigits ? this.range(DIGITS, exactDigits, digits) : '';

    // Tier 1: two ordered range scans; a contact matching both lists once, exact if either is.
    const exact = `${NAME} = $2${exactDigits ? ` OR ${DIGITS} = ${exactDigits}` : ''}`;
    const phonePrefixArm = digits
      ? `UNION ALL (SELECT ${COLUMNS}, ${exact} AS exact FROM ${CONTACTS} AND ${digitsRange}
            AND ${DIGITS} LIKE ${digitsPrefix}
            AND NOT ${NAME} LIKE ${namePrefix} ORDER BY ${DIGITS}, c.id LIMIT $3)`
      : '';
    // Tier 3: names through contact_names; phone digits (few rows each) through their GIN index (OFFSET 0 keeps
    // the planner from walking the name btree in order to find them), then by name.
    const substringArms = [
      ...(nameSub ? [this.byName('t12', `n.name LIKE ${nameSub}`)] : []),
      ...(digitsSub
        ? [
            `(SELECT ${COLUMNS}, ${NAME} AS name FROM (SELECT * FROM ${CONTACTS}
                AND ${PHONE_DIGITS_SQL('c')} LIKE ${digitsSub} OFFSET 0) c
              WHERE c.id <> ALL (SELECT id FROM t12) ORDER BY 5, c.id LIMIT $3)`,
          ]
        : []),
    ];
    if (!substringArms.length) substringArms.push(`(SELECT ${COLUMNS}, ${NAME} AS name FROM ${CONTACTS} AND false)`);

    return `WITH
      t1 AS (
        SELECT m.id, m.title, m.phone, m.email,
               row_number() OVER (ORDER BY m.exact DESC, lower(m.title), m.title, m.id) AS pos
          FROM ((SELECT ${COLUMNS}, ${exact} AS exact FROM ${CONTACTS} AND ${nameRange}
                  AND ${NAME} LIKE ${namePrefix} ORDER BY ${NAME}, c.id LIMIT $3)
                ${phonePrefixArm}) m
         ORDER BY pos LIMIT $3),
      t2 AS (
        SELECT r.id, r.title, r.phone, r.email, row_number() OVER (ORDER BY r.name, r.id) AS pos
          FROM ${this.byName('t1', `n.name LIKE ${wordPrefix}`)} r
         WHERE (SELECT count(*) FROM t1) < $3),
      t12 AS (SELECT id FROM t1 UNION ALL SELECT id FROM t2),
      t3 AS (
        SELECT r.id, r.title, r.phone, r.email, row_number() OVER (ORDER BY r.name, r.id) AS pos FROM (
          ${substringArms.join(' UNION ')}
        ) r WHERE (SELECT count(*) FROM t12) < $3
        ORDER BY pos LIMIT $3),
      t123 AS (SELECT id FROM t12 UNION ALL SELECT id FROM t3),
      t4 AS (
        SELECT r.id, r.title, r.phone, r.email, row_number() OVER (ORDER BY r.sim DESC, r.name, r.id) AS pos FROM (
          SELECT ${COLUMNS}, n.sim, n.ordered AS name FROM
              (SELECT name, name COLLATE "default" AS ordered, word_similarity($2, name) AS sim FROM contact_names
                WHERE organization_id = $1 AND name %> $2) n
              CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM ${CONTACTS} AND ${NAME} = n.name
                  AND c.id <> ALL (SELECT id FROM t123) ORDER BY c.id LIMIT $3) c
            ORDER BY n.sim DESC, n.ordered, c.id LIMIT $3
        ) r WHERE (SELECT count(*) FROM t123) < $3)
      SELECT id, title, phone, email FROM (
        SELECT 1 AS tier, * FROM t1 UNION ALL SELECT 2, * FROM t2 UNION ALL SELECT 3, * FROM t3
        UNION ALL SELECT 4, * FROM t4
      ) found ORDER BY tier, pos LIMIT $3`;
  }

  /** `expression` starts with `prefix` (already the parameter `from`), as a btree range. */
  private range(expression: string, from: string, prefix: string): string {
    const end = prefixEnd(prefix);
    return `${expression} >= ${from}${end === null ? '' : ` AND ${expression} < ${this.param(end)}`}`;
  }

  /** The contacts of the organization's distinct names that pass `test`, by name then id, not in `seen`. */
  private byName(seen: string, test: string): string {
    return `(SELECT ${COLUMNS}, n.name FROM contact_names n
        CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM ${CONTACTS} AND ${NAME} = n.name
            AND c.id <> ALL (SELECT id FROM ${seen}) ORDER BY c.id LIMIT $3) c
        WHERE n.organization_id = $1 AND ${test} ORDER BY n.name, c.id LIMIT $3)`;
  }
}

/**
 * The least string above every string that starts with `prefix`, in code point order (= UTF-8 byte order, the
 * "C" collation's); null when there is none (a prefix of U+10FFFF only).
 */
export function prefixEnd(prefix: string): string | null {
  const chars = [...prefix];
  while (chars.length) {
    const last = chars.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return null;
}
