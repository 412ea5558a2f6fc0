import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventFanoutJob } from './domain-event-fanout.job';
import { DomainEventFanoutService } from './domain-event-fanout.service';
import { OutboxEvent } from './outbox-event.entity';
import { OutboxPrunerJob } from './outbox-pruner.job';
import { OutboxRelayService } from './outbox-relay.service';
import { OutboxReplayJob } from './outbox-replay.job';
import { OutboxService } from './outbox.service';

/** Global: any module that changes state records its events through OutboxService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent])],
  providers: [
    OutboxService,
    OutboxRelayService,
    OutboxReplayJob,
    OutboxPrunerJob,
    DomainEventFanoutService,
    DomainEventFanoutJob,
  ],
  exports: [OutboxService, DomainEventFanoutService],
})
export class OutboxModule {}
