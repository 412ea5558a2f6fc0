import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../../common/auth/access.decorators';
import { KeyWorld, World } from '../../../common/auth/world';
import { IdParamPipe } from '../../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../../common/openapi/api-extension.decorator';
import { Page } from '../../../common/pagination/pagination.dto';
import { ListDeliveriesQueryDto } from '../dto/list-deliveries-query.dto';
import { RecoverDeliveriesQueryDto } from '../dto/recover-deliveries-query.dto';
import { WebhookEndpointResponse } from '../webhook-endpoint.response';
import { WebhooksService } from '../webhooks.service';
import { WebhookDeliveryResponse, WebhookRecoverResponse, WebhookRetryResponse } from './webhook-delivery.response';
import {
  MANUAL_SENDS_PER_MINUTE,
  RECOVER_BATCH,
  RECOVER_INTERVAL_SECONDS,
  WebhookOperationsService,
} from './webhook-operations.service';

const MANUAL_SENDS =
  `At most ${MANUAL_SENDS_PER_MINUTE} test pings and re-sends together per endpoint per minute, across every ` +
  'instance (429 RATE_LIMITED with `Retry-After`).';
const RETENTION =
  'Attempts are kept 14 days; a delivery can be re-sent while its event is kept (7 days). ' +
  'A delivery is one event to one endpoint; its `id` is the `X-Webhook-Id` header every attempt carried.';

/** Webhook operations beyond the spec (docs/contracts/modes.md): the delivery log, re-sends and a test ping. */
@ApiTags('Webhooks (extension)')
@Controller('api/v1/webhooks')
export class WebhookOperationsController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly operations: WebhookOperationsService,
  ) {}

  @Get(':id')
  @RequireScope('webhooks:read')
  @ApiContractExtension()
  @ApiOperation({ operationId: 'getWebhook', summary: 'One webhook endpoint (no secret)' })
  @ApiDataResponse(WebhookEndpointResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: WebhookEndpointResponse }> {
    return { data: WebhookEndpointResponse.from(await this.webhooks.get(world, id)) };
  }

  @Get(':id/deliveries')
  @RequireScope('webhooks:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's deliveries, newest first, each with its attempts",
    description: `${RETENTION} Filter by \`status\` and \`event\`.`,
  })
  @ApiPageResponse(WebhookDeliveryResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR', 'NOT_FOUND')
  list(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<Page<WebhookDeliveryResponse>> {
    return this.operations.list(world, id, query);
  }

  @Get(':id/deliveries/:deliveryId')
  @RequireScope('webhooks:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with its attempts',
    description: RETENTION,
  })
  @ApiDataResponse(WebhookDeliveryResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async getDelivery(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<{ data: WebhookDeliveryResponse }> {
    return { data: await this.operations.get(world, id, deliveryId) };
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @RequireScope('webhooks:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Re-send a delivery now',
    description:
      'Queues a new attempt at once, with the same `X-Webhook-Id` and the same body, signed with the current ' +
      'secret when it is sent; it appears in `attempts` when done. Allowed for `delivered` and `failed` ' +
      'deliveries of an active endpoint still subscribed to the event (422 INVALID_STATE otherwise); a `pending` ' +
      'one is 409 CONFLICT (its automatic retry is scheduled); a `webhook.test` ping is never re-sent (422 ' +
      'INVALID_STATE: send a new test ping). A failed re-send counts as a failed delivery ' +
      `towards disabling the endpoint, like any last retry. ${MANUAL_SENDS} ${RETENTION}`,
  })
  @ApiDataResponse(WebhookRetryResponse, { status: 202 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'INVALID_STATE', 'RATE_LIMITED')
  async retry(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<{ data: WebhookRetryResponse }> {
    return { data: await this.operations.retry(world, id, deliveryId) };
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a signed `webhook.test` event to this endpoint now and answer with the outcome',
    description:
      'One attempt, to this endpoint only, signed like every delivery; the answer waits for it, at most ' +
      '`WEBHOOK_TIMEOUT_MS` (10 s by default). Works on a disabled endpoint too (to check it before re-enabling); ' +
      'never retried and never counted towards disabling. The attempt is logged like any delivery. ' +
      MANUAL_SENDS,
  })
  @ApiDataResponse(WebhookDeliveryResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'RATE_LIMITED')
  async test(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: WebhookDeliveryResponse }> {
    return { data: await this.operations.test(world, id) };
  }

  @Post(':id/recover')
  @HttpCode(202)
  @RequireScope('webhooks:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Re-send every failed delivery since a time',
    description:
      `Queues a new attempt of each \`failed\` delivery first attempted at or after \`since\` (default: 7 days ago, ` +
      `all that can still be re-sent), oldest first, at most ` +
      `${RECOVER_BATCH} per call, sent 10 per second. One call per endpoint every ${RECOVER_INTERVAL_SECONDS} s ` +
      '(429 RATE_LIMITED with `Retry-After`); when `hasMore`, call again with `since` = `nextSince`. The endpoint ' +
      `must be active. ${RETENTION}`,
  })
  @ApiDataResponse(WebhookRecoverResponse, { status: 202 })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE', 'RATE_LIMITED')
  async recover(
    @KeyWorld() world: World,
    @Param('id', IdParamPipe) id: string,
    @Query() query: RecoverDeliveriesQueryDto,
  ): Promise<{ data: WebhookRecoverResponse }> {
    return { data: await this.operations.recover(world, id, query.since) };
  }
}
