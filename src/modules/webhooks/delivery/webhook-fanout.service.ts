import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../infra/queue/job-queue';
import { JobName } from '../../../infra/queue/queue-names';
import { DomainEventFanoutService } from '../../outbox/domain-event-fanout.service';
import { DomainEventListener, DomainEventMessage } from '../../outbox/domain-event';
import { EventBodies } from '../../outbox/event-bodies';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { deliveryJobOptions } from './webhook-delivery-job-data';

/**
 * Turns each relayed domain event into one delivery job per active endpoint of the organization and the event's
 * world subscribed to its type. Job ids are fixed per (event, endpoint), so a re-relayed event or a retried fan-out adds nothing.
 */
@Injectable()
export class WebhookFanoutService implements OnModuleInit, OnApplicationBootstrap, DomainEventListener {
  constructor(
    private readonly fanout: DomainEventFanoutService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly jobs: JobQueue,
    private readonly bodies: EventBodies,
  ) {}

  onModuleInit(): void {
    this.fanout.subscribe(this);
  }

  /** Every event type has a body once all modules registered theirs: a type without one stops start-up. */
  onApplicationBootstrap(): void {
    const missing = this.bodies.missing();
    if (missing.length) throw new Error(`No webhook body renderer for: ${missing.join(', ')}`);
  }

  async onDomainEvent(event: DomainEventMessage): Promise<void> {
    const endpoints = await this.endpoints.subscribedIds(event);
    if (!endpoints.length) return;
    await this.jobs.addBulk(
      JobName.DeliverWebhook,
      endpoints.map((id) => ({
        data: {
          eventId: event.eventId,
          organizationId: event.organizationId,
          endpointId: id,
          type: event.type,
          attempt: 1,
        },
        opts: deliveryJobOptions({ eventId: event.eventId, endpointId: id, attempt: 1 }),
      })),
    );
  }
}
