import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { OrganizationsService } from '../organizations/organizations.service';
import { AdminPhoneNumberResponse } from '../phone-numbers/phone-number.response';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { ApiKeyResponse } from '../api-keys/api-key.response';
import { AdminOrganizationResponse } from '../organizations/admin-organization.response';

/** Admin reads of organizations and what the dashboard alone manages for them: keys and phone numbers. */
@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1/organizations')
export class ConsoleOrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly keys: ApiKeysService,
    private readonly numbers: PhoneNumbersService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'adminListOrganizations', summary: 'Every organization, newest first' })
  @ApiPageResponse(AdminOrganizationResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  async list(@Query() query: PageQueryDto): Promise<Page<AdminOrganizationResponse>> {
    const page = await this.organizations.list(query);
    return { ...page, data: page.data.map(AdminOrganizationResponse.fromOrg) };
  }

  @Get(':orgId')
  @ApiOperation({ operationId: 'adminGetOrganization', summary: 'One organization with its profile' })
  @ApiDataResponse(AdminOrganizationResponse)
  @ApiAdminErrors()
  async get(@Param('orgId', ExistingOrganizationPipe) orgId: string): Promise<{ data: AdminOrganizationResponse }> {
    return { data: AdminOrganizationResponse.fromOrg(await this.organizations.mustExist(orgId)) };
  }

  @Get(':orgId/api-keys')
  @ApiOperation({
    operationId: 'adminListApiKeys',
    summary: "An organization's API keys with their last use, newest first",
    description: 'Never the key itself (it is shown once, at creation). `lastUsedAt` is refreshed once a minute.',
  })
  @ApiPageResponse(ApiKeyResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  async listKeys(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<ApiKeyResponse>> {
    const page = await this.keys.list(orgId, query);
    return { ...page, data: page.data.map(ApiKeyResponse.from) };
  }

  @Get(':orgId/phone-numbers')
  @ApiOperation({
    operationId: 'adminListPhoneNumbers',
    summary: "An organization's phone numbers",
    description: "With each number's platform id and its fallback platform (extension), as the admin API shows them",
  })
  @ApiDataResponse(AdminPhoneNumberResponse, { isArray: true })
  @ApiAdminErrors()
  async listNumbers(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
  ): Promise<{ data: AdminPhoneNumberResponse[] }> {
    return { data: (await this.numbers.listWithPlatformIds(orgId)).map(AdminPhoneNumberResponse.fromRow) };
  }
}
