import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CallsModule } from '../../calls/calls.module';
import { VoicePlatforms } from '../../calls/voice/voice-platforms';
import { PhoneNumbersModule } from '../../phone-numbers/phone-numbers.module';
import { VapiModule } from '../vapi/vapi.module';
import { RetellAgent } from './retell/retell-agent.entity';
import { RetellAgents } from './retell/retell-agents';
import { RetellAgentsRepository } from './retell/retell-agents.repository';
import { RetellClient } from './retell/retell-client';
import { RetellEventsController } from './retell/retell-events.controller';
import { RetellNumberDirectory } from './retell/retell-number-directory';
import { RetellVoiceProvider } from './retell/retell-voice.provider';
import { AdminSimulatorController } from './simulator/admin-simulator.controller';
import { SimulatorStepJob } from './simulator/simulator-step.job';
import { VoiceSimulatorProvider } from './simulator/voice-simulator.provider';
import { VapiEventsController } from './vapi/vapi-events.controller';
import { VapiMessageAuthenticator } from './vapi/vapi-message-authenticator';
import { VapiNumberDirectory } from './vapi/vapi-number-directory';
import { VapiVoiceProvider } from './vapi/vapi-voice.provider';

/**
 * The voice platforms: each one's adapter (placing, ending and reading calls), ingress (its callbacks, or the
 * simulator's steps) and number directory. It imports the calls module and binds the adapters into the calls'
 * registry; the calls module never imports it (docs/architecture.md, "Outside platforms").
 */
@Module({
  imports: [TypeOrmModule.forFeature([RetellAgent]), CallsModule, PhoneNumbersModule, VapiModule],
  controllers: [VapiEventsController, RetellEventsController, AdminSimulatorController],
  providers: [
    VoiceSimulatorProvider,
    SimulatorStepJob,
    VapiVoiceProvider,
    VapiNumberDirectory,
    VapiMessageAuthenticator,
    RetellClient,
    RetellVoiceProvider,
    RetellNumberDirectory,
    RetellAgents,
    RetellAgentsRepository,
  ],
})
export class VoicePlatformsModule {
  // Bound while the application is built, before any start-up hook or job could ask the registry for a call's
  // platform.
  constructor(
    registry: VoicePlatforms,
    simulator: VoiceSimulatorProvider,
    vapi: VapiVoiceProvider,
    retell: RetellVoiceProvider,
  ) {
    registry.bind({ simulator, vapi, retell });
  }
}
