import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CallEventBodies } from './call-event-bodies';
import { AssistantsModule } from '../assistants/assistants.module';
import { CasesModule } from '../cases/cases.module';
import { ToolsModule } from '../tools/tools.module';
import { ContactsModule } from '../contacts/contacts.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { DestinationsModule } from '../destinations/destinations.module';
import { LimitsModule } from '../limits/limits.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { NumberHealthModule } from '../number-health/number-health.module';
import { UsageModule } from '../usage/usage.module';
import { Call } from './call.entity';
import { CallEventsService } from './call-events.service';
import { CallEndListeners } from './call-end-listeners';
import { ToolCallsService } from './tool-calls.service';
import { CallReferences } from './call-references';
import { CallsController } from './calls.controller';
import { CallsRepository } from './calls.repository';
import { CallStatsService } from './call-stats.service';
import { CallsService } from './calls.service';
import { CreateCallCommand } from './create-call.command';
import { QueuedCallsBlocker } from './queued-calls-blocker';
import { CallAdmissionQueueJob } from './dispatch/call-admission-queue.job';
import { CallDispatchQueue } from './dispatch/call-dispatch-queue';
import { CallDispatcherJob } from './dispatch/call-dispatcher.job';
import { DueCallsDispatch } from './dispatch/due-calls-dispatch';
import { PlatformFailover } from './dispatch/platform-failover';
import { PlatformHealth } from './dispatch/platform-health.entity';
import { PlatformHealthRepository } from './dispatch/platform-health.repository';
import { CallSweeperJob } from './dispatch/call-sweeper.job';
import { InboundCallsService } from './inbound/inbound-calls.service';
import { CallSupervisorJob } from './supervision/call-supervisor.job';
import { CallReportRecoveryJob } from './supervision/call-report-recovery.job';
import { VoicePlatforms } from './voice/voice-platforms';
import { VoiceIngress } from './voice/voice-ingress';
import { VoiceIngressApplier } from './voice/voice-ingress-applier';
import { EndCallCommand } from './end-call.command';

/**
 * Calls: the public API, the dispatch engine and the port to the voice platforms (CallBilling from UsageModule).
 * The platforms' adapters and ingress are platforms/voice's module, which imports this one, never the reverse.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Call, PlatformHealth]),
    ContactsModule,
    CasesModule,
    ToolsModule,
    AssistantsModule,
    PhoneNumbersModule,
    NumberHealthModule,
    UsageModule,
    LimitsModule,
    DoNotCallModule,
    DestinationsModule,
  ],
  controllers: [CallsController],
  providers: [
    CallsRepository,
    CallStatsService,
    CallsService,
    CreateCallCommand,
    EndCallCommand,
    CallReferences,
    QueuedCallsBlocker,
    CallEventBodies,
    CallEventsService,
    CallEndListeners,
    ToolCallsService,
    CallDispatchQueue,
    CallAdmissionQueueJob,
    CallDispatcherJob,
    DueCallsDispatch,
    PlatformFailover,
    PlatformHealthRepository,
    CallSweeperJob,
    CallSupervisorJob,
    CallReportRecoveryJob,
    InboundCallsService,
    // Every platform's adapter, chosen per call by the platform the call stores; platforms/voice binds them.
    VoicePlatforms,
    // What the platforms' ingress hands its translated events and requests to.
    { provide: VoiceIngress, useClass: VoiceIngressApplier },
  ],
  exports: [
    CallsService,
    CreateCallCommand,
    EndCallCommand,
    CallEventsService,
    CallEndListeners,
    CallDispatchQueue,
    DueCallsDispatch,
    CallStatsService,
    // For the platform layer (platforms/voice): the registry it binds and the port its ingress reports through.
    VoicePlatforms,
    VoiceIngress,
  ],
})
export class CallsModule {}
