import { Injectable, OnModuleInit } from '@nestjs/common';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { RecurringSchedulesRepository } from './recurring-schedules.repository';

/** Recurring schedules and follow-up campaigns block deleting the case or outbound assistant they run with. */
@Injectable()
export class AutomationsBlocker implements OnModuleInit {
  constructor(
    private readonly registry: ReferenceRegistry,
    private readonly schedules: RecurringSchedulesRepository,
    private readonly followUps: FollowUpCampaignsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      order: 2,
      one: 'recurring schedule',
      many: 'recurring schedules',
      count: (tx, organizationId, target) => this.schedules.countReferencing(tx, organizationId, target),
    });
    this.registry.register({
      order: 3,
      one: 'follow-up campaign',
      many: 'follow-up campaigns',
      count: (tx, organizationId, target) => this.followUps.countReferencing(tx, organizationId, target),
    });
  }
}
