import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantsModule } from '../assistants/assistants.module';
import { AutomationsModule } from '../automations/automations.module';
import { CallsModule } from '../calls/calls.module';
import { CasesModule } from '../cases/cases.module';
import { ContactGroupsModule } from '../contact-groups/contact-groups.module';
import { ContactsModule } from '../contacts/contacts.module';
import { DoNotCallModule } from '../do-not-call/do-not-call.module';
import { DestinationsModule } from '../destinations/destinations.module';
import { LimitsModule } from '../limits/limits.module';
import { MessagingModule } from '../messaging/messaging.module';
import { NumberHealthModule } from '../number-health/number-health.module';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { UsageModule } from '../usage/usage.module';
import { CampaignActionsService } from './campaign-actions.service';
import { CampaignAttempt } from './campaign-attempt.entity';
import { CampaignAttemptsRepository } from './campaign-attempts.repository';
import { CampaignAudienceResolver } from './campaign-audience';
import { CampaignEntriesRepository } from './campaign-entries.repository';
import { CampaignEntry } from './campaign-entry.entity';
import { CampaignEvents } from './campaign-events';
import { Campaign } from './campaign.entity';
import { CampaignsController } from './campaigns.controller';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { ChangeCampaignStateCommand } from './change-campaign-state.command';
import { CreateCampaignCommand } from './create-campaign.command';
import { FollowUpMessenger } from './dialers/follow-up-messenger';
import { FollowUpRunner } from './dialers/follow-up-runner';
import { RecurringScheduleRunnerJob } from './dialers/recurring-schedule-runner.job';
import { AdvanceCampaignCommand } from './engine/advance-campaign.command';
import { CampaignEngineJob } from './engine/campaign-engine.job';

/** The dialer's campaigns (extension, docs/contracts/dialer.md): the API and the engine that turns entries into calls. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Campaign, CampaignEntry, CampaignAttempt]),
    CallsModule,
    CasesModule,
    ContactsModule,
    ContactGroupsModule,
    AssistantsModule,
    PhoneNumbersModule,
    NumberHealthModule,
    UsageModule,
    DoNotCallModule,
    DestinationsModule,
    LimitsModule,
    AutomationsModule,
    MessagingModule,
  ],
  controllers: [CampaignsController],
  providers: [
    CampaignsRepository,
    CampaignEntriesRepository,
    CampaignAttemptsRepository,
    CampaignAudienceResolver,
    CampaignEvents,
    CampaignsService,
    CreateCampaignCommand,
    ChangeCampaignStateCommand,
    CampaignActionsService,
    AdvanceCampaignCommand,
    CampaignEngineJob,
    RecurringScheduleRunnerJob,
    FollowUpRunner,
    FollowUpMessenger,
  ],
  exports: [CampaignEngineJob, CampaignsService, CampaignActionsService, CreateCampaignCommand],
})
export class CampaignsModule {}
