import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { CreateWebhookDto } from '../webhooks/dto/create-webhook.dto';
import { UpdateWebhookDto } from '../webhooks/dto/update-webhook.dto';
import {
  CreatedWebhookEndpointResponse,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '../webhooks/webhook-endpoint.response';
import { WebhooksService } from '../webhooks/webhooks.service';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

@ApiTags('Webhooks')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/webhooks')
export class ConsoleWebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminListWebhooks', summary: 'Webhook endpoints (no secrets)' })
  @ApiDataResponse(WebhookEndpointResponse, { isArray: true })
  @ApiAdminErrors()
  async list(@ConsoleWorld(ExistingWorldPipe) world: World) {
    return { data: (await this.webhooks.list(world)).map((e) => WebhookEndpointResponse.from(e)) };
  }

  @Post()
  @HttpCode(201)
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminCreateWebhook',
    summary:
      'Create an endpoint in the chosen world; the answer carries its secret, shown once (POST /api/v1/webhooks)',
  })
  @ApiDataResponse(CreatedWebhookEndpointResponse, { status: 201 })
  @ApiAdminErrors('MAX_ENDPOINTS')
  async create(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body() dto: CreateWebhookDto,
  ): Promise<{ data: CreatedWebhookEndpointResponse }> {
    const { endpoint, secret } = await this.webhooks.create(world, dto);
    return { data: { ...WebhookEndpointResponse.from(endpoint), secret } };
  }

  @Patch(':id')
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminUpdateWebhook',
    summary: 'Enable, disable or edit an endpoint (PATCH /api/v1/webhooks/{id})',
  })
  @ApiDataResponse(WebhookEndpointResponse)
  @ApiAdminErrors()
  async update(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateWebhookDto,
  ) {
    return { data: WebhookEndpointResponse.from(await this.webhooks.update(world, id, dto)) };
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminRotateWebhookSecret', summary: 'Rotate the signing secret; shown once' })
  @ApiDataResponse(WebhookSecretResponse)
  @ApiAdminErrors()
  async rotate(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return { data: { secret: await this.webhooks.rotateSecret(world, id) } };
  }
}
