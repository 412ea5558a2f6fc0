import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhookFanout } from './delivery/webhook-fanout.service';
import { WebhookDeliveriesPruner } from './webhook-deliveries-pruner.service';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { WebhookRedeliverySweeper } from './delivery/webhook-redelivery-sweeper.service';

/** Webhook endpoints (API) and the delivery engine (worker role: fan-out of domain events, signed retried POSTs). */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery])],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookFanout,
    WebhookDeliveryService,
    WebhookDeliveriesPruner,
    WebhookRedeliverySweeper,
  ],
})
export class WebhooksModule {}
