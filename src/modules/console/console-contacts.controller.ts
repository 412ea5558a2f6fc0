import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { ContactGroupResponse } from '../contact-groups/contact-group.response';
import { ContactGroupsService } from '../contact-groups/contact-groups.service';
import { ContactListItemResponse, ContactResponse } from '../contacts/contact.response';
import { ContactsService } from '../contacts/contacts.service';
import { CreateContactDto } from '../contacts/dto/create-contact.dto';
import { ListContactsQueryDto } from '../contacts/dto/list-contacts-query.dto';
import { World } from '../../common/auth/world';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ContactsBatchRowResponse } from '../contacts/contacts-batch.response';
import { ContactsBatchService } from '../contacts/contacts-batch.service';
import { CreateContactsBatchDto } from '../contacts/dto/create-contacts-batch.dto';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

@ApiTags('Contacts')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class ConsoleContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly groups: ContactGroupsService,
    private readonly batch: ContactsBatchService,
  ) {}

  @Get('contacts')
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminListContacts',
    summary: 'Contacts with search, group and tag filters (GET /api/v1/contacts)',
  })
  @ApiPageResponse(ContactListItemResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: ListContactsQueryDto,
  ): Promise<Page<ContactListItemResponse>> {
    return this.contacts.list(world, query);
  }

  @Post('contacts')
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminCreateContact',
    summary: 'Create a contact in the chosen world (POST /api/v1/contacts: same body, bounds and errors)',
  })
  @ApiDataResponse(ContactResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT')
  async create(@ConsoleWorld(ExistingWorldPipe) world: World, @Body() dto: CreateContactDto) {
    return { data: ContactResponse.from(await this.contacts.create(world, dto)) };
  }

  @Post('contacts/batch')
  @HttpCode(200)
  @Idempotent()
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminCreateContactsBatch',
    summary:
      'Create up to 1,000 contacts at once in the chosen world (POST /api/v1/contacts/batch: same body, bounds, results and Idempotency-Key)',
  })
  @ApiDataResponse(ContactsBatchRowResponse, { isArray: true })
  @ApiAdminErrors()
  async createBatch(@ConsoleWorld(ExistingWorldPipe) world: World, @Body() dto: CreateContactsBatchDto) {
    return { data: await this.batch.create(world, dto.contacts) };
  }

  @Get('contacts/:id')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminGetContact', summary: 'One contact with its custom fields' })
  @ApiDataResponse(ContactResponse)
  @ApiAdminErrors()
  async get(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return { data: ContactResponse.from(await this.contacts.get(world, id)) };
  }

  @Get('contact-groups')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminListContactGroups', summary: 'Contact groups with their sizes' })
  @ApiDataResponse(ContactGroupResponse, { isArray: true })
  @ApiAdminErrors()
  async listGroups(@ConsoleWorld(ExistingWorldPipe) world: World) {
    const rows = await this.groups.listWithCounts(world);
    return { data: rows.map((r) => ContactGroupResponse.from(r.group, r.contactCount)) };
  }
}
