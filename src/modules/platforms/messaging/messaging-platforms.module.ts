import { Module } from '@nestjs/common';
import { MessagingModule } from '../../messaging/messaging.module';
import { MessagingPlatforms } from '../../messaging/providers/messaging-platforms';
import { MessagingSimulatorProvider } from './simulator/messaging-simulator.provider';
import { SimulatedStatusJob } from './simulator/simulated-status.job';
import { SendPacingRepository } from './whatsapp/send-pacing.repository';
import { WhatsAppCloudProvider } from './whatsapp/whatsapp-cloud.provider';
import { WhatsAppGraphClient } from './whatsapp/whatsapp-graph-client';
import { WhatsAppMedia } from './whatsapp/whatsapp-media';
import { WhatsAppSendPacing } from './whatsapp/whatsapp-send-pacing';
import { WhatsAppTemplateReader } from './whatsapp/whatsapp-template-reader';
import { WhatsAppWebhookController } from './whatsapp/whatsapp-webhook.controller';
import { WhatsAppWebhookService } from './whatsapp/whatsapp-webhook.service';

/**
 * The messaging platforms: each one's adapter (sending, media, templates) and ingress (WhatsApp's webhook, the
 * simulator's status reports). It imports the messaging module and binds the adapters into its registry;
 * messaging never imports it (docs/architecture.md, "Outside platforms").
 */
@Module({
  imports: [MessagingModule],
  controllers: [WhatsAppWebhookController],
  providers: [
    MessagingSimulatorProvider,
    SimulatedStatusJob,
    WhatsAppGraphClient,
    // The shared pace of WhatsApp sends.
    SendPacingRepository,
    WhatsAppSendPacing,
    WhatsAppMedia,
    WhatsAppTemplateReader,
    WhatsAppCloudProvider,
    WhatsAppWebhookService,
  ],
})
export class MessagingPlatformsModule {
  // Bound while the application is built, before any job could ask for an account's platform.
  constructor(registry: MessagingPlatforms, simulator: MessagingSimulatorProvider, whatsapp: WhatsAppCloudProvider) {
    registry.bind({ simulator, whatsapp });
  }
}
