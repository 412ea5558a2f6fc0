import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssistantsModule } from '../assistants/assistants.module';
import { CasesModule } from '../cases/cases.module';
import { MessagingModule } from '../messaging/messaging.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminAutomationsController } from './admin-automations.controller';
import { AdminRecurringSchedulesController } from './admin-recurring-schedules.controller';
import { AutomationsService } from './automations.service';
import { OccurrencesService } from './occurrences.service';
import { AutomationsBlocker } from './automations-blocker';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { FollowUpMessage } from './follow-up-message.entity';
import { FollowUpMessagesRepository } from './follow-up-messages.repository';
import { RecurringSchedulesRepository } from './recurring-schedules.repository';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule } from './recurring-schedule.entity';

/**
 * Recurring schedules and follow-up campaigns (dashboard records, created through the admin API); both block
 * deleting the case or outbound assistant they run with (AutomationsBlocker registers them).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RecurringSchedule, FollowUpCampaign, FollowUpMessage]),
    OrganizationsModule,
    CasesModule,
    AssistantsModule,
    // Message follow-ups name a template of the organization's messaging accounts.
    MessagingModule,
  ],
  controllers: [AdminAutomationsController, AdminRecurringSchedulesController],
  providers: [
    AutomationsService,
    OccurrencesService,
    AutomationsBlocker,
    RecurringSchedulesRepository,
    FollowUpCampaignsRepository,
    FollowUpMessagesRepository,
  ],
  exports: [
    AutomationsService,
    OccurrencesService,
    RecurringSchedulesRepository,
    FollowUpCampaignsRepository,
    FollowUpMessagesRepository,
  ],
})
export class AutomationsModule {}
