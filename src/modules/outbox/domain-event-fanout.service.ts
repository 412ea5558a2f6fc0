import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEventListener, DomainEventMessage } from './domain-event';

/**
 * Hands each relayed event to every subscribed listener. A listener that throws fails the job, and BullMQ
 * retries it; listeners are idempotent per event id, so a retry never doubles an effect.
 */
@Injectable()
export class DomainEventFanoutService {
  private readonly listeners: DomainEventListener[] = [];

  constructor(private readonly dataSource: DataSource) {}

  subscribe(listener: DomainEventListener): void {
    this.listeners.push(listener);
  }

  async handle(event: DomainEventMessage): Promise<void> {
    await Promise.all(this.listeners.map((l) => l.onDomainEvent(event)));
    // Only after every listener succeeded: an event whose job vanished before this (Redis lost) stays
    // unprocessed in PostgreSQL, and OutboxReplayJob enqueues it again. One statement on the unique event id.
    await this.dataSource.query(
      'UPDATE outbox_events SET processed_at = now() WHERE event_id = $1 AND processed_at IS NULL',
      [event.eventId],
    );
  }
}
