import { ApiProperty } from '@nestjs/swagger';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';
import { Contact } from './contact.entity';

/** What `GET /contacts/search` returns per match (the spec's search subset). */
export class ContactSearchItemResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Alice Smith' }) title: string;
  @ApiProperty({ example: '+14155550187' }) phone: string;
  @ApiProperty({ type: String, nullable: true, example: 'alice@example.com' }) email: string | null;

  static from(c: Pick<Contact, 'id' | 'title' | 'phone' | 'email'>): ContactSearchItemResponse {
    return { id: c.id, title: c.title, phone: c.phone, email: c.email };
  }
}

/** What `GET /contacts` returns per contact (the spec's list subset). */
export class ContactListItemResponse extends ContactSearchItemResponse {
  @ApiProperty({ type: [String], example: ['vip'] }) tags: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static override from(c: Contact): ContactListItemResponse {
    return {
      ...ContactSearchItemResponse.from(c),
      tags: c.tags,
      createdAt: c.createdAt.toISOString(),
      livemode: c.livemode,
    };
  }
}

/**
 * The full Contact: returned by create, get and update, and carried by the `contact.*` events. It includes
 * `customFields` (required on create) and `notes` (required on update).
 */
export class ContactResponse extends ContactListItemResponse {
  @ApiProperty({ type: String, nullable: true, example: 'Prefers afternoon calls' }) notes: string | null;
  @ApiProperty({ type: Object, additionalProperties: true, example: { plan: 'gold' } })
  customFields: Record<string, unknown>;

  static override from(c: Contact): ContactResponse {
    return {
      id: c.id,
      title: c.title,
      phone: c.phone,
      email: c.email,
      notes: c.notes,
      tags: c.tags,
      customFields: c.customFields,
      createdAt: c.createdAt.toISOString(),
      livemode: c.livemode,
    };
  }
}
