import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryJob } from './delivery/webhook-delivery.job';
import { WebhookEventDeliveryJob } from './delivery/webhook-event-delivery.job';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhookFanoutService } from './delivery/webhook-fanout.service';
import { WebhookDeliveryLease } from './delivery/webhook-delivery-lease.entity';
import { WebhookDeliveryLeaseRepository } from './delivery/webhook-delivery-lease.repository';
import { WebhookDeliveryLogRepository } from './delivery/webhook-delivery-log.repository';
import { WebhookDeliverySlots } from './delivery/webhook-delivery-slots';
import { WebhookAttemptsRepository } from './delivery/webhook-attempts.repository';
import { WebhookDeliveriesPrunerJob } from './webhook-deliveries-pruner.job';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { WebhookRedeliverySweeperJob } from './delivery/webhook-redelivery-sweeper.job';
import { WebhookDeliveryRepository } from './operations/webhook-delivery.repository';
import { WebhookOperationsController } from './operations/webhook-operations.controller';
import { WebhookOperationsService } from './operations/webhook-operations.service';

/** Webhook endpoints (API) and the delivery engine (worker role: fan-out of domain events, signed retried POSTs). */
@Module({
  // RateLimitModule: the per-endpoint budget of test pings and re-sends, in the rate limits' shared store.
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookDeliveryLease]), RateLimitModule],
  controllers: [WebhooksController, WebhookOperationsController],
  providers: [
    WebhooksService,
    WebhookEndpointsRepository,
    WebhookFanoutService,
    WebhookDeliveryService,
    WebhookDeliveryJob,
    WebhookEventDeliveryJob,
    WebhookDeliveryLeaseRepository,
    WebhookDeliveryLogRepository,
    WebhookDeliverySlots,
    WebhookAttemptsRepository,
    WebhookDeliveriesPrunerJob,
    WebhookRedeliverySweeperJob,
    WebhookDeliveryRepository,
    WebhookOperationsService,
  ],
  exports: [WebhooksService, WebhookOperationsService],
})
export class WebhooksModule {}
