import { fakeOf } from '../../infra/testing/fake-of';
import type { DomainEventMessage } from './domain-event';
import type { DomainEvent } from './domain-event-handler';
import { DomainEventFanoutService } from './domain-event-fanout.service';
import { OutboxEventsRepository, ProcessedEventRow } from './outbox-events.repository';

describe('DomainEventFanoutService', () => {
  const message: DomainEventMessage = {
    eventId: '00000000-0000-7000-8000-000000000001',
    organizationId: '00000000-0000-7000-8000-000000000002',
    type: 'call.ended',
    occurredAt: '2026-01-01T00:00:00.000Z',
  };
  const row = (processedAt: Date | null): ProcessedEventRow => ({
    event_id: message.eventId,
    organization_id: message.organizationId,
    livemode: true,
    type: 'call.ended',
    data: { callId: 'c1' },
    occurred_at: new Date(message.occurredAt),
    processed_at: processedAt,
  });

  /** A fan-out with one listener of every event and one handler of call.ended, over the given stored row. */
  const fanoutOver = (stored: ProcessedEventRow | undefined) => {
    const listened: DomainEventMessage[] = [];
    const handled: DomainEvent[] = [];
    const processed: string[] = [];
    const fanout = new DomainEventFanoutService(
      fakeOf<OutboxEventsRepository>({
        findMany: () => Promise.resolve(stored ? [stored] : []),
        markProcessed: (eventIds: readonly string[]) => Promise.resolve(void processed.push(...eventIds)),
      }),
    );
    fanout.subscribe({ onDomainEvent: (m) => Promise.resolve(void listened.push(m)) });
    fanout.on({ types: ['call.ended'], handle: (e) => Promise.resolve(void handled.push(e)) });
    return { fanout, listened, handled, processed };
  };

  it('hands an unprocessed event to its listeners and handlers, then marks it processed', async () => {
    const f = fanoutOver(row(null));
    await f.fanout.handle(message);
    expect(f.listened).toEqual([message]);
    expect(f.handled).toEqual([
      {
        eventId: message.eventId,
        type: 'call.ended',
        world: { organizationId: message.organizationId, livemode: true },
        occurredAt: message.occurredAt,
        payload: { callId: 'c1' },
      },
    ]);
    expect(f.processed).toEqual([message.eventId]);
  });

  it('does nothing with an event already processed (a copy re-enqueued after its first job left the queue)', async () => {
    const f = fanoutOver(row(new Date()));
    await f.fanout.handle(message);
    expect(f.listened).toEqual([]);
    expect(f.handled).toEqual([]);
    expect(f.processed).toEqual([]);
  });

  it('still hands a pruned event to its listeners (they need only the reference), not to payload handlers', async () => {
    const f = fanoutOver(undefined);
    await f.fanout.handle(message);
    expect(f.listened).toEqual([message]);
    expect(f.handled).toEqual([]);
    expect(f.processed).toEqual([message.eventId]);
  });
});
