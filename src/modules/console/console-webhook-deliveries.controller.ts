import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { ListDeliveriesQueryDto } from '../webhooks/dto/list-deliveries-query.dto';
import { WebhookDeliveryResponse, WebhookRetryResponse } from '../webhooks/operations/webhook-delivery.response';
import { WebhookOperationsService } from '../webhooks/operations/webhook-operations.service';
import { World } from '../../common/auth/world';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/**
 * The console's view of an endpoint's delivery log, with re-send and test ping: the public operations
 * (`/api/v1/webhooks/{id}/...`) for any organization, through the same service, so the rules (what may be
 * re-sent, retention, signing) hold once.
 */
@ApiTags('Webhooks')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/webhooks/:id')
export class ConsoleWebhookDeliveriesController {
  constructor(private readonly operations: WebhookOperationsService) {}

  @Get('deliveries')
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminListWebhookDeliveries',
    summary: "An endpoint's deliveries, newest first, each with its attempts (GET /api/v1/webhooks/{id}/deliveries)",
  })
  @ApiPageResponse(WebhookDeliveryResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<Page<WebhookDeliveryResponse>> {
    return this.operations.list(world, id, query);
  }

  @Get('deliveries/:deliveryId')
  @ApiConsoleWorld()
  @ApiOperation({ operationId: 'adminGetWebhookDelivery', summary: 'One delivery with its attempts' })
  @ApiDataResponse(WebhookDeliveryResponse)
  @ApiAdminErrors()
  async get(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return { data: await this.operations.get(world, id, deliveryId) };
  }

  @Post('deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminRetryWebhookDelivery',
    summary: 'Re-send a delivery now (POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry)',
    description:
      'Same rules as the public route: a `pending` delivery is 409 CONFLICT; a test ping, a disabled or ' +
      'unsubscribed endpoint, or an event no longer kept is 422 INVALID_STATE.',
  })
  @ApiDataResponse(WebhookRetryResponse, { status: 202 })
  @ApiAdminErrors('CONFLICT', 'INVALID_STATE')
  async retry(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Param('id', IdParamPipe) id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return { data: await this.operations.retry(world, id, deliveryId) };
  }

  @Post('test')
  @HttpCode(200)
  @ApiConsoleWorld()
  @ApiOperation({
    operationId: 'adminTestWebhook',
    summary: 'Send a signed `webhook.test` event now and answer with the outcome (POST /api/v1/webhooks/{id}/test)',
  })
  @ApiDataResponse(WebhookDeliveryResponse)
  @ApiAdminErrors()
  async test(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('id', IdParamPipe) id: string) {
    return { data: await this.operations.test(world, id) };
  }
}
