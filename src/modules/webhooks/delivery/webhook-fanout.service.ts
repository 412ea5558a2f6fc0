import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { firstInLine } from '../../../infra/database/first-in-line';
import { JobQueue } from '../../../infra/queue/job-queue';
import { KeyedBatcher } from '../../../common/concurrency/keyed-batcher';
import { JobName, QUEUE_CONCURRENCY, QueueName } from '../../../infra/queue/queue-names';
import { DomainEventFanoutService } from '../../outbox/domain-event-fanout.service';
import { DomainEventListener, DomainEventMessage } from '../../outbox/domain-event';
import { EventBodies } from '../../outbox/event-bodies';
import { WebhookEndpointsRepository } from '../webhook-endpoints.repository';
import { eventDeliveryJobOptions } from './webhook-delivery-job-data';

/**
 * Turns each relayed domain event into one job of first attempts, to every active endpoint of the organization and
 * the event's world subscribed to its type (WebhookEventDeliveryJob). Its job id is fixed per event, so a
 * re-relayed event or a retried fan-out adds nothing.
 */
@Injectable()
export class WebhookFanoutService implements OnModuleInit, OnApplicationBootstrap, DomainEventListener {
  /**
   * The events handled at once go together: one query reads their subscriptions (one per event was two fifths of
   * the PostgreSQL transactions of a burst's fan-out, BENCHMARKS.md), and one call to the queue store adds their
   * jobs (one write for the batch instead of one per event).
   */
  private readonly batch = new KeyedBatcher<DomainEventMessage, void>(
    (_, events) => this.enqueue(events),
    QUEUE_CONCURRENCY[QueueName.DomainEvents],
  );

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

  /** The subscription read goes to the head of the pool's line, as the attempts it creates do (first-in-line.ts). */
  onDomainEvent(event: DomainEventMessage): Promise<void> {
    return firstInLine(() => this.batch.submit('', event));
  }

  private async enqueue(events: DomainEventMessage[]): Promise<void[]> {
    const endpoints = await this.endpoints.subscribedIds(events);
    const jobs = events.flatMap((event, i) =>
      endpoints[i].length
        ? [
            {
              data: {
                eventId: event.eventId,
                organizationId: event.organizationId,
                type: event.type,
                endpointIds: endpoints[i],
              },
              opts: eventDeliveryJobOptions(event.eventId),
            },
          ]
        : [],
    );
    if (jobs.length) await this.jobs.addBulk(JobName.DeliverWebhookEvent, jobs);
    return events.map(() => undefined);
  }
}
