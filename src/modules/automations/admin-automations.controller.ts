import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiError } from '../../common/errors/api-error';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { FollowUpCampaignResponse, FollowUpMessageResponse, RecurringScheduleResponse } from './automation.response';
import { AutomationsService, MAX_LISTED } from './automations.service';
import { CreateFollowUpCampaignDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { FollowUpMessagesRepository } from './follow-up-messages.repository';

/** Recurring schedules and follow-up campaigns; tagged per route, since the follow-up outcomes are an extension. */
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
  @ApiTags('Usage and automations')
  @ApiOperation({
    operationId: 'adminCreateRecurringSchedule',
    summary: 'Create a recurring schedule; it blocks deleting the case and assistant it names',
    description:
      'Needs `caseId` or `assistantConfigId` (400 otherwise; 404 when either is not in the organization). ' +
      'Extension (the dialer): with `rrule`, `from` and `audience` (all three or none) each occurrence places a ' +
      'campaign; 400 for a rule with no occurrence to come.',
  })
  @ApiDataResponse(RecurringScheduleResponse, { status: 201 })
  @ApiAdminErrors()
  async createRecurringSchedule(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateRecurringScheduleDto,
  ): Promise<{ data: RecurringScheduleResponse }> {
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
  @ApiTags('Usage and automations')
  @ApiOperation({
    operationId: 'adminCreateFollowUpCampaign',
    summary: 'Create a follow-up campaign; it blocks deleting the case and assistant it names',
    description:
      'Needs `caseId` or `assistantConfigId` (400 otherwise; 404 when either is not in the organization). ' +
      'Extension (the dialer): `delaySeconds` with `from` (both or neither) calls the number again after a ' +
      'triggering call; `message` sends an approved template (404 TEMPLATE_NOT_FOUND when none of that name and ' +
      'language is approved on an active account; 400 when `variables` are not exactly its placeholders).',
  })
  @ApiDataResponse(FollowUpCampaignResponse, { status: 201 })
  @ApiAdminErrors('TEMPLATE_NOT_FOUND')
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
  @ApiContractExtension()
  @ApiTags('Usage and automations (extension)')
  @ApiOperation({
    operationId: 'adminListFollowUpMessages',
    summary: `What a message follow-up did about each call that triggered it (newest first, at most ${MAX_LISTED})`,
  })
  @ApiDataResponse(FollowUpMessageResponse, { isArray: true })
  @ApiAdminErrors()
  async listFollowUpMessages(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: FollowUpMessageResponse[] }> {
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
