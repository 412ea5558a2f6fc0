import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { AssistantsModule } from '../assistants/assistants.module';
import { CasesModule } from '../cases/cases.module';
import { ContactsModule } from '../contacts/contacts.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { UsageModule } from '../usage/usage.module';
import { Call } from './call.entity';
import { CallEventsService } from './call-events.service';
import { CallReferences } from './call-references';
import { CallsController } from './calls.controller';
import { CallsService } from './calls.service';
import { CallDispatchQueue } from './dispatch/call-dispatch-queue';
import { CallDispatcher } from './dispatch/call-dispatcher.service';
import { CallSweeper } from './dispatch/call-sweeper.service';
import { AdminSimulatorController } from './inbound/admin-simulator.controller';
import { InboundCallsService } from './inbound/inbound-calls.service';
import { CallSupervisor } from './supervision/call-supervisor.service';
import { VoiceSimulator } from './voice/simulator/voice-simulator';
import { VapiClient } from './voice/vapi/vapi-client';
import { VapiEventsController } from './voice/vapi/vapi-events.controller';
import { VapiVoiceProvider } from './voice/vapi/vapi-voice-provider';
import { VoiceProvider } from './voice/voice-provider';

/** Calls: the public API, the dispatch engine and the voice platform behind it (CallBilling from UsageModule). */
@Module({
  imports: [
    TypeOrmModule.forFeature([Call]),
    ContactsModule,
    CasesModule,
    AssistantsModule,
    PhoneNumbersModule,
    UsageModule,
  ],
  controllers: [CallsController, VapiEventsController, AdminSimulatorController],
  providers: [
    CallsService,
    CallReferences,
    CallEventsService,
    CallDispatchQueue,
    CallDispatcher,
    CallSweeper,
    CallSupervisor,
    InboundCallsService,
    VoiceSimulator,
    VapiClient,
    VapiVoiceProvider,
    {
      provide: VoiceProvider,
      inject: [APP_CONFIG, VoiceSimulator, VapiVoiceProvider],
      // The simulator stays available either way: the admin simulator row plays inbound calls on it.
      useFactory: (config: AppConfig, simulator: VoiceSimulator, vapi: VapiVoiceProvider) =>
        config.voiceProvider === 'vapi' ? vapi : simulator,
    },
  ],
  exports: [CallsService, CallEventsService],
})
export class CallsModule {}
