import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiError } from '../../common/errors/api-error';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { AutomationsService, MAX_LISTED } from './automations.service';
import { CreateFollowUpCampaignDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { FollowUpMessagesRepository } from './follow-up-messages.repository';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId')
export class AdminAutomationsController {
  constructor(
    private readonly automations: AutomationsService,
    private readonly followUps: FollowUpCampaignsRepository,
    private readonly followUpMessages: FollowUpMessagesRepository,
  ) {}

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
        message: c.messageTemplateName
          ? {
              templateName: c.messageTemplateName,
              templateLanguage: c.messageTemplateLanguage,
              variables: c.messageVariables,
            }
          : null,
        createdAt: c.createdAt.toISOString(),
      },
    };
  }

  /** What a message follow-up did about each call that triggered it (newest first, at most MAX_LISTED). */
  @Get('follow-up-campaigns/:id/messages')
  async listFollowUpMessages(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
  ) {
    if (!(await this.followUps.find(orgId, id))) throw ApiError.notFound('Follow-up campaign');
    const rows = await this.followUpMessages.recent(orgId, id, MAX_LISTED);
    return {
      data: rows.map((r) => ({
        callId: r.callId,
        status: r.status,
        reason: r.reason,
        conversationId: r.conversationId,
        messageId: r.messageId,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
}
