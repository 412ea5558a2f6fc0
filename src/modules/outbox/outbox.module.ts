import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventFanoutJob } from './domain-event-fanout.job';
import { DomainEventFanoutService } from './domain-event-fanout.service';
import { EventBodies } from './event-bodies';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxEventsRepository } from './outbox-events.repository';
import { OutboxPrunerJob } from './outbox-pruner.job';
import { OutboxRelayService } from './outbox-relay.service';
import { OutboxReplayJob } from './outbox-replay.job';
import { OutboxService } from './outbox.service';
import { OutboxWakeup } from './outbox-wakeup';

/**
 * Global: any module that changes state records its events through OutboxService, and registers the public
 * bodies of its events with EventBodies.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent])],
  providers: [
    OutboxService,
    OutboxWakeup,
    OutboxEventsRepository,
    OutboxRelayService,
    OutboxReplayJob,
    OutboxPrunerJob,
    DomainEventFanoutService,
    DomainEventFanoutJob,
    EventBodies,
  ],
  exports: [OutboxService, OutboxEventsRepository, DomainEventFanoutService, EventBodies],
})
export class OutboxModule {}
