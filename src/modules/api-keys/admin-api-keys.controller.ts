import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { OrganizationsService } from '../organizations/organizations.service';
import { ApiKey } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto } from './dto/create-api-key.dto';

function present(key: ApiKey) {
  return {
    id: key.id,
    organizationId: key.organizationId,
    name: key.name,
    environment: key.environment,
    hint: key.hint,
    scopes: key.scopes,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}

/** Admin API (CONTRACTS §6): keys are created and revoked by the dashboard only. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1')
export class AdminApiKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Post('organizations/:orgId/api-keys')
  @HttpCode(201)
  async create(@Param('orgId', IdParamPipe) orgId: string, @Body() dto: CreateApiKeyDto) {
    await this.organizations.mustExist(orgId);
    const { entity, key } = await this.keys.create(orgId, dto);
    return { data: { ...present(entity), key } };
  }

  @Post('api-keys/:keyId/revoke')
  @HttpCode(200)
  async revoke(@Param('keyId', IdParamPipe) keyId: string) {
    return { data: present(await this.keys.revoke(keyId)) };
  }
}
