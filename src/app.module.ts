import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AccessGuard } from './common/auth/access.guard';
import { CommonModule } from './common/common.module';
import { ReadRoutingInterceptor } from './common/read-routing/read-routing.interceptor';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { AppConfig, appConfigNamespace } from './infra/config/app-config';
import { DatabaseModule } from './infra/database/database.module';
import { DatabaseUrls } from './infra/database/database-urls';
import { HealthModule } from './modules/health/health.module';
import { LoggingModule } from './infra/logging/logging.module';
import { MetricsModule } from './infra/metrics/metrics.module';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { QueueConnection } from './infra/queue/queue-connection';
import { QueueModule } from './infra/queue/queue.module';
import { AnswerDetectionModule } from './modules/answer-detection/answer-detection.module';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { AssistantsModule } from './modules/assistants/assistants.module';
import { AutomationsModule } from './modules/automations/automations.module';
import { CallsModule } from './modules/calls/calls.module';
import { CampaignsModule } from './modules/campaigns/campaigns.module';
import { CasesModule } from './modules/cases/cases.module';
import { ToolsModule } from './modules/tools/tools.module';
import { ContactGroupsModule } from './modules/contact-groups/contact-groups.module';
import { ConsoleModule } from './modules/console/console.module';
import { ContactsModule } from './modules/contacts/contacts.module';
import { DoNotCallModule } from './modules/do-not-call/do-not-call.module';
import { DestinationsModule } from './modules/destinations/destinations.module';
import { LimitsModule } from './modules/limits/limits.module';
import { MessagingModule } from './modules/messaging/messaging.module';
import { NumberHealthModule } from './modules/number-health/number-health.module';
import { ScenariosModule } from './modules/scenarios/scenarios.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { OutboxModule } from './modules/outbox/outbox.module';
import { PhoneNumbersModule } from './modules/phone-numbers/phone-numbers.module';
import { ChatPlatformsModule } from './modules/platforms/chat/chat-platforms.module';
import { MessagingPlatformsModule } from './modules/platforms/messaging/messaging-platforms.module';
import { VoicePlatformsModule } from './modules/platforms/voice/voice-platforms.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { UsageModule } from './modules/usage/usage.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** The databases actually used (the configured ones, or the embedded one started for this process). */
  database: DatabaseUrls;
  queue: QueueConnection;
}

@Module({})
export class AppModule {
  static forRoot({ config, database, queue }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfigNamespace(config)] }),
        LoggingModule.forRoot(config),
        DatabaseModule.forRoot(database, config.databasePoolSize),
        ScheduleModule.forRoot(),
        QueueModule.forRoot(queue),
        MetricsModule,
        RateLimitModule,
        CommonModule,
        HealthModule,
        OutboxModule,
        OrganizationsModule,
        ApiKeysModule,
        PhoneNumbersModule,
        NumberHealthModule,
        ContactGroupsModule,
        ContactsModule,
        AutomationsModule,
        ToolsModule,
        CasesModule,
        AssistantsModule,
        LimitsModule,
        DoNotCallModule,
        DestinationsModule,
        CallsModule,
        // The outside platforms' adapters and ingress, bound into their domains' registries.
        VoicePlatformsModule,
        AnswerDetectionModule,
        CampaignsModule,
        WebhooksModule,
        UsageModule,
        MessagingModule,
        MessagingPlatformsModule,
        ChatPlatformsModule,
        ScenariosModule,
        ConsoleModule,
      ],
      providers: [
        // Order matters: global guards run in registration order, and the rate limit needs the authenticated key.
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Only with a replica to route to: a global interceptor wraps every request's handler in its own chain of
        // observables even when it passes the request on untouched (BENCHMARKS.md, POST /contacts and POST /calls).
        ...(database.read ? [{ provide: APP_INTERCEPTOR, useExisting: ReadRoutingInterceptor }] : []),
      ],
    };
  }
}
