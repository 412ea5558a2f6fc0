import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ContactSearchItemResponse } from './contact.response';
import { ContactSearchRepository } from './contact-search.repository';
import { phoneDigitsOf } from './contact-text-match';

/** `GET /contacts/search`: ranked matches over names and phone digits, best first (ContactSearchRepository). */
@Injectable()
export class ContactSearchService {
  constructor(private readonly contacts: ContactSearchRepository) {}

  async search(world: World, q: string, limit: number): Promise<ContactSearchItemResponse[]> {
    const text = q.trim().toLowerCase();
    const rows = await this.contacts.search(world, text, phoneDigitsOf(text), limit);
    return rows.map(ContactSearchItemResponse.from);
  }
}
