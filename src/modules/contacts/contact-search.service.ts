import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactSearchItemResponse } from './contact.response';
import { NAME_SQL, PHONE_DIGITS_SQL, escapeLike, phoneDigitsOf } from './contact-text-match';

type Row = { id: string; title: string; phone: string; email: string | null };

/**
 * `GET /contacts/search`: ranked matches over names and phone digits, best first:
 *   1. exact name or exact phone digits, then name prefix or phone-digits prefix (by name);
 *   2. prefix of a later word of the name ("smi" in "Alice Smith"), by name;
 *   3. substring of the name or of the phone digits, by name;
 *   4. typo-tolerant matches (pg_trgm word similarity, closest first).
 *
 * Tiers run in order and stop once `limit` results are found, so a common prefix ("ali" among thousands of
 * Alices) is answered from an ordered btree range scan instead of ranking every match. Tier 1 uses the
 * byte-order btree indexes, tiers 2-4 the pg_trgm GIN indexes (or the ordered btree when a word is very common);
 * none scans the organization's contacts. Two-character queries have no complete trigram for `%xy%`, so they
 * skip tier 3.
 */
@Injectable()
export class ContactSearchService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(organizationId: string, q: string, limit: number): Promise<ContactSearchItemResponse[]> {
    const text = q.trim().toLowerCase();
    const digits = phoneDigitsOf(text);
    const found = new Map<string, Row>();
    for (const tier of [this.prefixTier, this.wordTier, this.substringTier, this.fuzzyTier]) {
      for (const row of await tier.call(this, organizationId, text, digits, limit)) {
        if (!found.has(row.id)) found.set(row.id, row);
      }
      if (found.size >= limit) break;
    }
    return [...found.values()].slice(0, limit).map(ContactSearchItemResponse.from);
  }

  private prefixTier(organizationId: string, text: string, digits: string | null, limit: number): Promise<Row[]> {
    const name = `${NAME_SQL('c')} COLLATE "C"`;
    const phone = `${PHONE_DIGITS_SQL('c')} COLLATE "C"`;
    const byPhone = digits
      ? `UNION ALL (SELECT c.id, c.title, c.phone, c.email, ${phone} = $5 AS exact FROM contacts c
           WHERE c.organization_id = $1 AND ${phone} LIKE $6 ORDER BY ${phone}, c.id LIMIT $4)`
      : '';
    return this.dataSource.query(
      `SELECT id, title, phone, email FROM (
         (SELECT c.id, c.title, c.phone, c.email, ${name} = $2 AS exact FROM contacts c
           WHERE c.organization_id = $1 AND ${name} LIKE $3 ORDER BY ${name}, c.id LIMIT $4)
         ${byPhone}
       ) m ORDER BY exact DESC, lower(title), title, id LIMIT $4`,
      [organizationId, text, `${escapeLike(text)}%`, limit, ...(digits ? [digits, `${digits}%`] : [])],
    );
  }

  /** Word prefixes, in name order: for a common word the planner may walk the name btree in order and stop early. */
  private wordTier(organizationId: string, text: string, _digits: string | null, limit: number): Promise<Row[]> {
    return this.inNameOrder(organizationId, [`${NAME_SQL('c')} LIKE $3`], [`% ${escapeLike(text)}%`], limit);
  }

  /** Substrings of the name (3+ characters) or of the phone digits (3+ digits). */
  private substringTier(organizationId: string, text: string, digits: string | null, limit: number): Promise<Row[]> {
    const conditions: string[] = [];
    const values: string[] = [];
    if (text.length >= 3) {
      values.push(`%${escapeLike(text)}%`);
      conditions.push(`${NAME_SQL('c')} LIKE $${values.length + 2}`);
    }
    if (digits && digits.length >= 3) {
      values.push(`%${digits}%`);
      conditions.push(`${PHONE_DIGITS_SQL('c')} LIKE $${values.length + 2}`);
    }
    return conditions.length ? this.inNameOrder(organizationId, conditions, values, limit) : Promise.resolve([]);
  }

  private inNameOrder(organizationId: string, conditions: string[], values: string[], limit: number): Promise<Row[]> {
    const name = `${NAME_SQL('c')} COLLATE "C"`;
    return this.dataSource.query(
      `SELECT c.id, c.title, c.phone, c.email FROM contacts c
        WHERE c.organization_id = $1 AND (${conditions.join(' OR ')})
        ORDER BY ${name}, c.id LIMIT $2`,
      [organizationId, limit, ...values],
    );
  }

  private fuzzyTier(organizationId: string, text: string, _digits: string | null, limit: number): Promise<Row[]> {
    const name = NAME_SQL('c');
    return this.dataSource.query(
      `SELECT c.id, c.title, c.phone, c.email FROM contacts c
        WHERE c.organization_id = $1 AND ${name} %> $2
        ORDER BY word_similarity($2, ${name}) DESC, lower(c.title), c.id LIMIT $3`,
      [organizationId, text, limit],
    );
  }
}
