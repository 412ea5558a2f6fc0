import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { ContactListItemResponse, ContactResponse, ContactSearchItemResponse } from './contact.response';
import { ContactSearchService } from './contact-search.service';
import { ContactsService } from './contacts.service';
import { ContactsBatchService } from './contacts-batch.service';
import { ContactsBatchRowResponse } from './contacts-batch.response';
import { CreateContactsBatchDto } from './dto/create-contacts-batch.dto';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { CreateContactDto } from './dto/create-contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';
import { SearchContactsQueryDto } from './dto/search-contacts-query.dto';
import { UpdateContactDto } from './dto/update-contact.dto';

@ApiTags('Contacts')
@Controller('api/v1/contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly searcher: ContactSearchService,
    private readonly batch: ContactsBatchService,
  ) {}

  @Get()
  @RequireScope('contacts:read')
  @ApiOperation({
    operationId: 'listContacts',
    summary: 'List contacts, newest first',
    description:
      'Filters combine with AND: `search` (name contains, or phone digits contain), `groupId` (member of the group) ' +
      'and `tags` (comma-separated; ANY-match: the contact has at least one of them).',
  })
  @ApiPageResponse(ContactListItemResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: ListContactsQueryDto): Promise<Page<ContactListItemResponse>> {
    return this.contacts.list(world, query);
  }

  @Get('search')
  @RequireScope('contacts:read')
  @ApiOperation({
    operationId: 'searchContacts',
    summary: 'Search contacts by name or phone, best match first',
    description:
      'Ranking: exact name or phone, then name or phone prefix, then prefix of a later word of the name, then ' +
      'substring and typo-tolerant matches. Not paginated.',
  })
  @ApiDataResponse(ContactSearchItemResponse, { isArray: true })
  @ApiErrors('VALIDATION_ERROR')
  async search(
    @KeyWorld() world: World,
    @Query() query: SearchContactsQueryDto,
  ): Promise<{ data: ContactSearchItemResponse[] }> {
    return { data: await this.searcher.search(world, query.q, query.limit) };
  }

  @Post()
  @HttpCode(201)
  @Idempotent()
  @RequireScope('contacts:write')
  @ApiOperation({ operationId: 'createContact', summary: 'Create a contact' })
  @ApiDataResponse(ContactResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'CONFLICT')
  async create(@KeyWorld() world: World, @Body() dto: CreateContactDto): Promise<{ data: ContactResponse }> {
    return { data: ContactResponse.from(await this.contacts.create(world, dto)) };
  }

  @Post('batch')
  @HttpCode(200)
  @Idempotent()
  @RequireScope('contacts:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'createContactsBatch',
    summary: 'Create up to 1,000 contacts at once',
    description:
      'Extension. `contacts`: 1-1,000 rows, each the body of POST /api/v1/contacts (same fields, bounds and ' +
      'checks; the whole body at most 1 MiB and 100,000 JSON members). Answers 200 with one result per row, in ' +
      'order: `created` (with `id`), `exists` when the world already has a contact with that phone, an earlier ' +
      'row included (with the `id` of that contact; nothing changed), or `refused` with the `error` POST ' +
      '/contacts would have answered. The rows are written in one transaction, each created contact with its ' +
      '`contact.created` event. A body that is not 1-1,000 rows is 400 VALIDATION_ERROR and creates nothing.',
  })
  @ApiDataResponse(ContactsBatchRowResponse, { isArray: true })
  @ApiErrors('VALIDATION_ERROR')
  async createBatch(
    @KeyWorld() world: World,
    @Body() dto: CreateContactsBatchDto,
  ): Promise<{ data: ContactsBatchRowResponse[] }> {
    return { data: await this.batch.create(world, dto.contacts) };
  }

  @Get(':id')
  @RequireScope('contacts:read')
  @ApiOperation({ operationId: 'getContact', summary: 'Get a contact' })
  @ApiDataResponse(ContactResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: ContactResponse }> {
    return { data: ContactResponse.from(await this.contacts.get(world, id)) };
  }

  @Patch(':id')
  @RequireScope('contacts:write')
  @ApiOperation({ operationId: 'updateContact', summary: 'Update a contact (tags, groupIds, customFields replace)' })
  @ApiDataResponse(ContactResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT')
  async update(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateContactDto,
  ): Promise<{ data: ContactResponse }> {
    return { data: ContactResponse.from(await this.contacts.update(world, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('contacts:write')
  @ApiOperation({
    operationId: 'deleteContact',
    summary: 'Delete a contact permanently (its group memberships go with it; calls keep their contactId)',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async delete(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.contacts.delete(world, id);
  }
}
