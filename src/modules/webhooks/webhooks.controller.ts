import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import {
  CreatedWebhookEndpointResponse,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from './webhook-endpoint.response';
import { WebhooksService } from './webhooks.service';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RequireScope('webhooks:read')
  @ApiOperation({ operationId: 'listWebhooks', summary: 'Webhook endpoints, newest first (not paginated; no secrets)' })
  @ApiDataResponse(WebhookEndpointResponse, { isArray: true })
  async list(@KeyWorld() world: World): Promise<{ data: WebhookEndpointResponse[] }> {
    const rows = await this.webhooks.list(world);
    return { data: rows.map((r) => WebhookEndpointResponse.from(r)) };
  }

  @Post()
  @HttpCode(201)
  @Idempotent({ secretFrom: WebhooksService })
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'createWebhook', summary: 'Create a webhook endpoint; the response carries its secret' })
  @ApiDataResponse(CreatedWebhookEndpointResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'MAX_ENDPOINTS')
  async create(
    @KeyWorld() world: World,
    @Body() dto: CreateWebhookDto,
  ): Promise<{ data: CreatedWebhookEndpointResponse }> {
    const { endpoint, secret } = await this.webhooks.create(world, dto);
    return { data: { ...WebhookEndpointResponse.from(endpoint), secret } };
  }

  @Patch(':id')
  @RequireScope('webhooks:write')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint; `events` replaces the list, `isActive: true` re-enables it',
  })
  @ApiDataResponse(WebhookEndpointResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async update(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateWebhookDto,
  ): Promise<{ data: WebhookEndpointResponse }> {
    return { data: WebhookEndpointResponse.from(await this.webhooks.update(world, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @RequireScope('webhooks:write')
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint; pending deliveries are cancelled',
  })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async remove(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.webhooks.remove(world, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiOperation({ operationId: 'rotateWebhookSecret', summary: 'New signing secret; the old one is invalid at once' })
  @ApiDataResponse(WebhookSecretResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async rotateSecret(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: WebhookSecretResponse }> {
    return { data: { secret: await this.webhooks.rotateSecret(world, id) } };
  }
}
