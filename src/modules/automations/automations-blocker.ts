import { Injectable, OnModuleInit } from '@nestjs/common';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule } from './recurring-schedule.entity';

/**
 * Recurring schedules and follow-up campaigns block deleting the case or outbound assistant they run with;
 * registered with the ReferenceRegistry, which the deleting modules ask.
 */
@Injectable()
export class DeleteBlockersService implements OnModuleInit {
  constructor(private readonly registry: ReferenceRegistry) {}

  onModuleInit(): void {
    this.registry.register({
      order: 2,
      one: 'recurring schedule',
      many: 'recurring schedules',
      count: (tx, organizationId, target) => tx.countBy(RecurringSchedule, { organizationId, ...target }),
    });
    this.registry.register({
      order: 3,
      one: 'follow-up campaign',
      many: 'follow-up campaigns',
      count: (tx, organizationId, target) => tx.countBy(FollowUpCampaign, { organizationId, ...target }),
    });
  }
}
