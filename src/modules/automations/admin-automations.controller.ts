import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { OrganizationsService } from '../organizations/organizations.service';
import { AutomationsService } from './automations.service';
import { CreateFollowUpCampaignDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class AdminAutomationsController {
  constructor(
    private readonly automations: AutomationsService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Post('recurring-schedules')
  @HttpCode(201)
  async createRecurringSchedule(@Param('orgId', IdParamPipe) orgId: string, @Body() dto: CreateRecurringScheduleDto) {
    await this.organizations.mustExist(orgId);
    const s = await this.automations.createRecurringSchedule(orgId, dto, dto.status ?? 'active');
    return {
      data: {
        id: s.id,
        caseId: s.caseId,
        assistantConfigId: s.assistantConfigId,
        status: s.status,
        createdAt: s.createdAt.toISOString(),
      },
    };
  }

  @Post('follow-up-campaigns')
  @HttpCode(201)
  async createFollowUpCampaign(@Param('orgId', IdParamPipe) orgId: string, @Body() dto: CreateFollowUpCampaignDto) {
    await this.organizations.mustExist(orgId);
    const c = await this.automations.createFollowUpCampaign(orgId, dto);
    return {
      data: {
        id: c.id,
        caseId: c.caseId,
        assistantConfigId: c.assistantConfigId,
        createdAt: c.createdAt.toISOString(),
      },
    };
  }
}
