import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Call } from '../calls/call.entity';
import { MessagingModule } from '../messaging/messaging.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminAutomationsController } from './admin-automations.controller';
import { AdminRecurringSchedulesController } from './admin-recurring-schedules.controller';
import { AutomationsService } from './automations.service';
import { DeleteBlockersService } from './delete-blockers.service';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { FollowUpMessage } from './follow-up-message.entity';
import { FollowUpMessagesRepository } from './follow-up-messages.repository';
import { RecurringSchedulesRepository } from './recurring-schedules.repository';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule } from './recurring-schedule.entity';

/**
 * Recurring schedules and follow-up campaigns (dashboard records, created through the admin API) and the
 * delete-blocker check that cases and outbound assistants share. `Call` is registered here only to count
 * queued calls; the calls module owns it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RecurringSchedule, FollowUpCampaign, FollowUpMessage, Call]),
    OrganizationsModule,
    // Message follow-ups name a template of the organization's messaging accounts.
    MessagingModule,
  ],
  controllers: [AdminAutomationsController, AdminRecurringSchedulesController],
  providers: [
    AutomationsService,
    DeleteBlockersService,
    RecurringSchedulesRepository,
    FollowUpCampaignsRepository,
    FollowUpMessagesRepository,
  ],
  exports: [
    DeleteBlockersService,
    AutomationsService,
    RecurringSchedulesRepository,
    FollowUpCampaignsRepository,
    FollowUpMessagesRepository,
  ],
})
export class AutomationsModule {}
