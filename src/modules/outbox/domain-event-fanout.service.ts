import { Injectable } from '@nestjs/common';
import { KeyedBatcher } from '../../common/concurrency/keyed-batcher';
import { firstInLine } from '../../infra/database/first-in-line';
import { QUEUE_CONCURRENCY, QueueName } from '../../infra/queue/queue-names';
import { DomainEventListener, DomainEventMessage, DomainEventType } from './domain-event';
import { DomainEvent, DomainEventHandler } from './domain-event-handler';
import { OutboxEventsRepository, ProcessedEventRow, RecordedEventRow } from './outbox-events.repository';

/**
 * Hands each relayed event to every subscribed listener. A listener that throws fails the job, and BullMQ
 * retries it; listeners are idempotent per event id, so a retry never doubles an effect. An event PostgreSQL
 * already marks processed is not handed out again: a relay that died between enqueue and commit enqueues its
 * events a second time, and while the first job is still in the queue the shared job id drops the copy; once
 * it has left (completed jobs are kept only within a bounded window), `processed_at` does.
 */
@Injectable()
export class DomainEventFanoutService {
  private readonly listeners: DomainEventListener[] = [];
  private readonly handlers: Array<DomainEventHandler<DomainEventType>> = [];
  /** The events whose jobs start together are read in one statement (a campaign's call has two). */
  private readonly reads = new KeyedBatcher<string, ProcessedEventRow | undefined>(async (_, eventIds) => {
    const rows = new Map((await this.events.findMany(eventIds)).map((r) => [r.event_id, r]));
    return eventIds.map((id) => rows.get(id));
  }, QUEUE_CONCURRENCY[QueueName.DomainEvents]);
  /** The events whose listeners finish together are marked in one statement (one per event was a fifth of a burst's). */
  private readonly processed = new KeyedBatcher<string, void>(async (_, eventIds) => {
    await this.events.markProcessed(eventIds);
    return eventIds.map(() => undefined);
  }, QUEUE_CONCURRENCY[QueueName.DomainEvents]);

  constructor(private readonly events: OutboxEventsRepository) {}

  /** A listener of every event, by reference (it reads nothing of the payload). */
  subscribe(listener: DomainEventListener): void {
    this.listeners.push(listener);
  }

  /** A handler of some types, given each event's typed payload and world. */
  on<K extends DomainEventType>(handler: DomainEventHandler<K>): void {
    // Stored widened: `handle` hands a handler only events of its own types, filtered by `types`.
    this.handlers.push(handler as unknown as DomainEventHandler<DomainEventType>);
  }

  /**
   * The event's own statements (its read and its mark) are on the way to its webhook deliveries, so they go to
   * the head of the pool's line as the deliveries' do (first-in-line.ts); the handlers' work keeps its place.
   */
  async handle(message: DomainEventMessage): Promise<void> {
    // One read: whether the event was handled already, and its payload (used only when some handler takes it;
    // most events only go to webhooks). A pruned row (kept a week, far past any retry) reads as unprocessed.
    const row = await firstInLine(() => this.reads.submit('', message.eventId));
    if (row?.processed_at) return;
    const handlers = this.handlers.filter((h) => h.types.includes(message.type));
    const event = handlers.length && row ? domainEventOf(row) : null;
    await Promise.all([
      ...this.listeners.map((l) => l.onDomainEvent(message)),
      ...(event ? handlers.map((h) => h.handle(event)) : []),
    ]);
    // Only after every listener succeeded: an event whose job vanished before this (Redis lost) stays
    // unprocessed in PostgreSQL, and OutboxReplayJob enqueues it again.
    await firstInLine(() => this.processed.submit('', message.eventId));
  }
}

/** The recorded event with its payload. */
function domainEventOf(row: RecordedEventRow): DomainEvent {
  return {
    eventId: row.event_id,
    type: row.type,
    world: { organizationId: row.organization_id, livemode: row.livemode },
    occurredAt: row.occurred_at.toISOString(),
    payload: row.data,
  } as DomainEvent; // the row's data is its type's payload: only OutboxService.record writes it
}
