import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { CreateContactDto } from './create-contact.dto';

/** docs/contracts/bounds.md: contacts in one batch (one transaction). */
export const CONTACTS_BATCH_MAX = 1000;

export class CreateContactsBatchDto {
  @ApiProperty({
    type: [CreateContactDto],
    minItems: 1,
    maxItems: CONTACTS_BATCH_MAX,
    description:
      'Each the body of POST /api/v1/contacts, checked on its own: a row that is not valid is answered `refused` ' +
      'and the others are still created',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CONTACTS_BATCH_MAX)
  // Rows are validated one by one (ContactsBatchService), so one bad row refuses only itself.
  contacts: unknown[];
}
