import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { AutomationsService } from './automations.service';
import { CreateFollowUpCampaignDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class AdminAutomationsController {
  constructor(private readonly automations: AutomationsService) {}

  @Post('recurring-schedules')
  @HttpCode(201)
  async createRecurringSchedule(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateRecurringScheduleDto,
  ) {
    const s = await this.automations.createRecurringSchedule(orgId, dto, dto.status ?? 'active');
    return {
      data: {
        id: s.id,
        caseId: s.caseId,
        assistantConfigId: s.assistantConfigId,
        status: s.status,
        rrule: s.rrule,
        timeZone: s.timeZone,
        nextOccurrenceAt: s.nextOccurrenceAt?.toISOString() ?? null,
        createdAt: s.createdAt.toISOString(),
      },
    };
  }

  @Post('follow-up-campaigns')
  @HttpCode(201)
  async createFollowUpCampaign(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateFollowUpCampaignDto,
  ) {
    const c = await this.automations.createFollowUpCampaign(orgId, dto);
    return {
      data: {
        id: c.id,
        caseId: c.caseId,
        assistantConfigId: c.assistantConfigId,
        delaySeconds: c.delaySeconds,
        triggerOn: c.triggerOn,
        createdAt: c.createdAt.toISOString(),
      },
    };
  }
}
