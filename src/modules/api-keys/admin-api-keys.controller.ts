import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { ApiKeyResponse, CreatedApiKeyResponse } from './api-key.response';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

/** Admin API (docs/contracts/admin-api.md): keys are created and revoked by the dashboard only. Documented in openapi/admin.yaml. */
@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1')
export class AdminApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post('organizations/:orgId/api-keys')
  @HttpCode(201)
  @ApiOperation({ operationId: 'adminCreateApiKey', summary: 'Create an API key; `key` is shown this once' })
  @ApiDataResponse(CreatedApiKeyResponse, { status: 201 })
  @ApiAdminErrors()
  async create(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateApiKeyDto,
  ): Promise<{ data: CreatedApiKeyResponse }> {
    const { entity, key } = await this.keys.create(orgId, dto);
    return { data: { ...ApiKeyResponse.from(entity), key } };
  }

  @Post('api-keys/:keyId/revoke')
  @HttpCode(200)
  @ApiOperation({ operationId: 'adminRevokeApiKey', summary: 'Revoke an API key at once, in every process' })
  @ApiDataResponse(ApiKeyResponse)
  @ApiAdminErrors()
  async revoke(@Param('keyId', IdParamPipe) keyId: string): Promise<{ data: ApiKeyResponse }> {
    return { data: ApiKeyResponse.from(await this.keys.revoke(keyId)) };
  }
}
