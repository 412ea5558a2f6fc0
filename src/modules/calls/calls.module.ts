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
import { VoiceSimulator } from './voice/simulator/voice-simulator';
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
  controllers: [CallsController],
  providers: [
    CallsService,
    CallReferences,
    CallEventsService,
    CallDispatchQueue,
    CallDispatcher,
    CallSweeper,
    VoiceSimulator,
    {
      provide: VoiceProvider,
      inject: [APP_CONFIG, VoiceSimulator],
      useFactory: (config: AppConfig, simulator: VoiceSimulator) => {
        // Only the simulator ships with this module; the Vapi adapter (CONTRACTS §5) plugs in here.
        if (config.voiceProvider !== 'simulator') {
          throw new Error(`VOICE_PROVIDER=${config.voiceProvider} has no adapter in this build; use VOICE_PROVIDER=simulator`);
        }
        return simulator;
      },
    },
  ],
  exports: [CallsService, CallEventsService],
})
export class CallsModule {}
