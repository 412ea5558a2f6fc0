import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { ConsoleSessionVerifier } from '../../common/auth/console-session-verifier';
import { AnswerDetectionModule } from '../answer-detection/answer-detection.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { NumberHealthModule } from '../number-health/number-health.module';
import { AssistantsModule } from '../assistants/assistants.module';
import { AutomationsModule } from '../automations/automations.module';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CallsModule } from '../calls/calls.module';
import { CasesModule } from '../cases/cases.module';
import { ContactGroupsModule } from '../contact-groups/contact-groups.module';
import { ContactsModule } from '../contacts/contacts.module';
import { MessagingModule } from '../messaging/messaging.module';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { ScenariosModule } from '../scenarios/scenarios.module';
import { UsageModule } from '../usage/usage.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ConsoleAnswerDetectionController } from './console-answer-detection.controller';
import { ConsoleNumberHealthController } from './console-number-health.controller';
import { ConsoleCallsController } from './console-calls.controller';
import { ConsoleCampaignsController } from './console-campaigns.controller';
import { ConsoleContactsController } from './console-contacts.controller';
import { ConsoleMessagingController } from './console-messaging.controller';
import { ConsoleDoNotCallController } from './console-do-not-call.controller';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { ConsoleOrganizationsController } from './console-organizations.controller';
import { ConsoleScenariosController } from './console-scenarios.controller';
import { ConsoleScriptsController } from './console-scripts.controller';
import { ConsoleSession } from './console-session.entity';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleSessionsController } from './console-sessions.controller';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionsService } from './console-sessions.service';
import { ConsoleUsageController } from './console-usage.controller';
import { ConsoleWebhookDeliveriesController } from './console-webhook-deliveries.controller';
import { ConsoleWebhooksController } from './console-webhooks.controller';

/**
 * The web console's backend: operator sessions (global, because the access guard verifies them app-wide) and
 * the admin reads its pages need, each delegating to the domain module's own service (no second copy of a rule).
 */
@Global()
@Module({
  imports: [
    DoNotCallModule,
    TypeOrmModule.forFeature([ConsoleSession]),
    RateLimitModule,
    OrganizationsModule,
    ApiKeysModule,
    PhoneNumbersModule,
    CallsModule,
    CasesModule,
    AssistantsModule,
    ContactsModule,
    ContactGroupsModule,
    WebhooksModule,
    MessagingModule,
    UsageModule,
    AutomationsModule,
    CampaignsModule,
    AnswerDetectionModule,
    NumberHealthModule,
    ScenariosModule,
  ],
  controllers: [
    ConsoleSessionController,
    ConsoleSessionsController,
    ConsoleOrganizationsController,
    ConsoleCallsController,
    ConsoleScriptsController,
    ConsoleContactsController,
    ConsoleWebhooksController,
    ConsoleWebhookDeliveriesController,
    ConsoleMessagingController,
    ConsoleDoNotCallController,
    ConsoleUsageController,
    ConsoleCampaignsController,
    ConsoleAnswerDetectionController,
    ConsoleNumberHealthController,
    ConsoleScenariosController,
  ],
  providers: [
    ConsoleSessionsRepository,
    ConsoleSessionsService,
    ExistingOrganizationPipe,
    { provide: ConsoleSessionVerifier, useExisting: ConsoleSessionsService },
  ],
  exports: [ConsoleSessionVerifier],
})
export class ConsoleModule {}
