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
import { VapiModule } from '../platforms/vapi/vapi.module';
import { UsageModule } from '../usage/usage.module';
import { Call } from './call.entity';
import { CallEventsService } from './call-events.service';
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
import { CallSweeperJob } from './dispatch/call-sweeper.job';
import { AdminSimulatorController } from './inbound/admin-simulator.controller';
import { InboundCallsService } from './inbound/inbound-calls.service';
import { CallSupervisorJob } from './supervision/call-supervisor.job';
import { VoiceSimulatorProvider } from './voice/simulator/voice-simulator.provider';
import { SimulatorStepJob } from './voice/simulator/simulator-step.job';
import { VapiEventsController } from './voice/vapi/vapi-events.controller';
import { VapiNumberDirectory } from './voice/vapi/vapi-number-directory';
import { VapiMessageAuthenticator } from './voice/vapi/vapi-message-authenticator';
import { CallReportRecoveryJob } from './supervision/call-report-recovery.job';
import { VapiVoiceProvider } from './voice/vapi/vapi-voice.provider';
import { VoicePlatforms } from './voice/voice-platforms';
import { EndCallCommand } from './end-call.command';

/** Calls: the public API, the dispatch engine and the voice platform behind it (CallBilling from UsageModule). */
@Module({
  imports: [
    TypeOrmModule.forFeature([Call]),
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
    VapiModule,
  ],
  controllers: [CallsController, VapiEventsController, AdminSimulatorController],
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
    ToolCallsService,
    CallDispatchQueue,
    CallAdmissionQueueJob,
    CallDispatcherJob,
    CallSweeperJob,
    CallSupervisorJob,
    CallReportRecoveryJob,
    InboundCallsService,
    VoiceSimulatorProvider,
    SimulatorStepJob,
    VapiVoiceProvider,
    VapiNumberDirectory,
    VapiMessageAuthenticator,
    // Every platform's adapter, chosen per call by the platform the call stores.
    VoicePlatforms,
  ],
  exports: [CallsService, CreateCallCommand, EndCallCommand, CallEventsService, CallDispatchQueue, CallStatsService],
})
export class CallsModule {}
