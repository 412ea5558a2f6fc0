import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactSearchItemResponse } from './contact.response';
import { NAME_SQL, PHONE_DIGITS_SQL, escapeLike, phoneDigitsOf } from './contact-text-match';

/**
 * `GET /contacts/search`: ranked matches over names and phone digits.
 *
 * Rank (best first): 0 exact name or exact phone digits; 1 name prefix or phone-digits prefix; 2 prefix of a later
 * word of the name ("smi" in "Alice Smith"); 3 substring anywhere or typo-tolerant (pg_trgm word similarity).
 * Within a rank, closer trigram word-similarity first, then name, then id (stable order).
 *
 * Every candidate condition is an indexable pg_trgm operator (LIKE / `%>`) on the GIN-indexed expressions, so
 * PostgreSQL combines bitmap index scans instead of scanning the organization's contacts. Two-character queries
 * have no complete trigram for a `%xy%` pattern, so they match prefixes (of the name, a word, or the digits) only.
 */
@Injectable()
export class ContactSearchService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(organizationId: string, q: string, limit: number): Promise<ContactSearchItemResponse[]> {
    const text = q.trim().toLowerCase();
    const like = escapeLike(text);
    const digits = phoneDigitsOf(text);
    const name = NAME_SQL('c');
    const phoneDigits = PHONE_DIGITS_SQL('c');
    const params: unknown[] = [organizationId, text, `${like}%`, `% ${like}%`, limit];
    const param = (value: unknown) => `$${params.push(value)}`;

    const candidates = [`${name} LIKE $3`, `${name} LIKE $4`, `${name} %> $2`];
    if (text.length >= 3) candidates.push(`${name} LIKE ${param(`%${like}%`)}`);
    const rankCases = [`WHEN ${name} = $2 THEN 0`, `WHEN ${name} LIKE $3 THEN 1`];
    if (digits) {
      const exact = param(digits);
      const prefix = param(`${digits}%`);
      candidates.push(`${phoneDigits} LIKE ${digits.length >= 3 ? param(`%${digits}%`) : prefix}`);
      rankCases.splice(1, 0, `WHEN ${phoneDigits} = ${exact} THEN 0`);
      rankCases.push(`WHEN ${phoneDigits} LIKE ${prefix} THEN 1`);
    }
    rankCases.push(`WHEN ${name} LIKE $4 THEN 2`);

    const rows: Array<{ id: string; title: string; phone: string; email: string | null }> = await this.dataSource.query(
      `SELECT c.id, c.title, c.phone, c.email
         FROM contacts c
        WHERE c.organization_id = $1 AND (${candidates.join(' OR ')})
        ORDER BY CASE ${rankCases.join(' ')} ELSE 3 END, word_similarity($2, ${name}) DESC, c.title, c.id
        LIMIT $5`,
      params,
    );
    return rows.map(ContactSearchItemResponse.from);
  }
}
