import { Injectable } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { createValidationPipe } from '../../common/validation/validation.pipe';
import { ContactsBatchRowResponse } from './contacts-batch.response';
import { ContactsService, groupsRefused } from './contacts.service';
import { CreateContactDto } from './dto/create-contact.dto';

/** The global pipe's rules (whitelist, every field named), applied to one row at a time. */
const rowPipe = createValidationPipe();

/**
 * Creates many contacts at once (POST /contacts/batch): each row is checked as POST /contacts checks its body,
 * then every valid row is written in one transaction, in order, each with its `contact.created` event. A row whose
 * phone the world already has (an earlier row included) is `exists` and changes nothing; a row that does not
 * validate, or names a group the organization does not have, is `refused` with the error POST /contacts answers.
 */
@Injectable()
export class ContactsBatchService {
  constructor(private readonly contacts: ContactsService) {}

  async create(world: World, rows: readonly unknown[]): Promise<ContactsBatchRowResponse[]> {
    const checked = await Promise.all(rows.map(validRow));
    const groupIds = checked.flatMap((c) => (c instanceof CreateContactDto ? (c.groupIds ?? []) : []));
    return this.contacts.createMany(world, groupIds, async (tx, missingGroups) => {
      const results: ContactsBatchRowResponse[] = [];
      for (const [row, dto] of checked.entries()) {
        const missing = dto instanceof CreateContactDto ? dto.groupIds?.filter((id) => missingGroups.has(id)) : [];
        const refusal = dto instanceof ApiError ? dto : missing?.length ? groupsRefused(missing) : null;
        if (refusal || !(dto instanceof CreateContactDto)) {
          results.push({ row, status: 'refused', error: errorOf(refusal!) });
          continue;
        }
        const created = await this.contacts.createIn(tx, world, dto);
        const id = created?.id ?? (await this.contacts.idByPhone(tx, world, dto.phone));
        results.push({ row, status: created ? 'created' : 'exists', ...(id ? { id } : {}) });
      }
      return results;
    });
  }
}

async function validRow(row: unknown): Promise<CreateContactDto | ApiError> {
  try {
    return (await rowPipe.transform(row, { type: 'body', metatype: CreateContactDto })) as CreateContactDto;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

function errorOf(error: ApiError): NonNullable<ContactsBatchRowResponse['error']> {
  return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}
