import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { OutboundAssistantsService } from '../assistants/outbound-assistants.service';
import { CasesService } from '../cases/cases.service';
import { RULE_HORIZON_DAYS, ruleProblem } from './next-occurrence';
import { OccurrencesService, RULE_CHECK_BUDGET_MS } from './occurrences.service';
import { MessagingAccountsService } from '../messaging/messaging-accounts.service';
import { variablesMatch } from '../messaging/template-placeholders';
import { CreateFollowUpCampaignDto, FollowUpMessageDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { FollowUpCampaignsRepository } from './follow-up-campaigns.repository';
import { RecurringSchedule, RecurringScheduleStatus } from './recurring-schedule.entity';
import { RecurringSchedulesRepository } from './recurring-schedules.repository';
import { inTransaction, Tx } from '../../infra/database/tx';

interface References {
  caseId?: string;
  assistantConfigId?: string;
}

/** A bound on the console's automation lists; an organization has a handful of these records. */
export const MAX_LISTED = 200;

/** Dashboard-managed recurring schedules and follow-up campaigns (admin API); they block deletes. */
@Injectable()
export class AutomationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly messaging: MessagingAccountsService,
    private readonly occurrences: OccurrencesService,
    private readonly cases: CasesService,
    private readonly assistants: OutboundAssistantsService,
    private readonly schedules: RecurringSchedulesRepository,
    private readonly followUps: FollowUpCampaignsRepository,
  ) {}

  async createRecurringSchedule(
    organizationId: string,
    dto: CreateRecurringScheduleDto,
    status: RecurringScheduleStatus,
  ): Promise<RecurringSchedule> {
    const dialer = [dto.rrule, dto.from, dto.audience].filter((x) => x !== undefined).length;
    if (dialer !== 0 && dialer !== 3) throw ApiError.validation('rrule', 'rrule, from and audience go together');
    const timeZone = dto.timeZone ?? 'UTC';
    if (dto.rrule) await this.assertBoundedRule(dto.rrule, timeZone);
    return inTransaction(this.dataSource, async (m) => {
      await this.lockReferences(m, organizationId, dto);
      const schedule = await this.schedules.insert(m, {
        organizationId,
        caseId: dto.caseId ?? null,
        assistantConfigId: dto.assistantConfigId ?? null,
        status,
        rrule: dto.rrule ?? null,
        timeZone,
        callFrom: dto.from ?? null,
        audience: dto.audience ? { ...dto.audience } : null,
        nextOccurrenceAt: null,
      });
      if (!schedule.rrule) return schedule;
      // The series is anchored at createdAt, as the runner and resume compute it: an anchor taken from this
      // process's clock instead could fall in another second than the row's timestamp (the transaction's start)
      // and put the first occurrence off the series' grid (seen: two occurrences of an every-2-s rule 1 s apart).
      schedule.nextOccurrenceAt = await this.occurrences.next(
        schedule.rrule,
        timeZone,
        schedule.createdAt,
        schedule.createdAt,
      );
      await this.schedules.setNextOccurrence(m, schedule.id, schedule.nextOccurrenceAt);
      return schedule;
    });
  }

  /**
   * Pauses or resumes a schedule. Occurrences that fell while paused are not made up: a resumed schedule fires
   * from its next occurrence after now.
   */
  async setRecurringScheduleStatus(id: string, status: RecurringScheduleStatus): Promise<RecurringSchedule> {
    const schedule = await this.schedules.find(id);
    if (!schedule) throw ApiError.notFound('Recurring schedule');
    const now = new Date();
    const next = schedule.rrule
      ? await this.occurrences.next(schedule.rrule, schedule.timeZone, schedule.createdAt, now)
      : null;
    const updated = await this.schedules.setStatus(null, id, status, next);
    if (!updated) throw ApiError.notFound('Recurring schedule');
    return updated;
  }

  /**
   * A rule is accepted when it is bounded (ruleProblem) and has an occurrence within RULE_HORIZON_DAYS, found
   * within the computation budget: a rule that never matches is refused in about that budget, never by walking
   * rrule's periods up to the year 9999 (docs/operations.md, "Recurring schedules").
   */
  private async assertBoundedRule(rule: string, zone: string): Promise<void> {
    const problem = ruleProblem(rule);
    if (problem) throw ApiError.validation('rrule', problem);
    const now = new Date();
    const horizon = now.getTime() + RULE_HORIZON_DAYS * 24 * 3600 * 1000;
    const next = await this.occurrences.next(rule, zone, now, now, RULE_CHECK_BUDGET_MS).catch(() => null);
    if (!next || next.getTime() > horizon) {
      throw ApiError.validation('rrule', `rrule must have an occurrence within the next ${RULE_HORIZON_DAYS} days`);
    }
  }

  async createFollowUpCampaign(organizationId: string, dto: CreateFollowUpCampaignDto): Promise<FollowUpCampaign> {
    if ((dto.delaySeconds === undefined) !== (dto.from === undefined)) {
      throw ApiError.validation('delaySeconds', 'delaySeconds and from go together');
    }
    if (dto.message) await this.assertSendable(organizationId, dto.message);
    return inTransaction(this.dataSource, async (m) => {
      await this.lockReferences(m, organizationId, dto);
      return this.followUps.insert(m, {
        organizationId,
        caseId: dto.caseId ?? null,
        assistantConfigId: dto.assistantConfigId ?? null,
        delaySeconds: dto.delaySeconds ?? null,
        callFrom: dto.from ?? null,
        triggerCaseId: dto.triggerCaseId ?? null,
        messageTemplateName: dto.message?.templateName ?? null,
        messageTemplateLanguage: dto.message?.templateLanguage ?? null,
        messageVariables: dto.message ? (dto.message.variables ?? {}) : null,
        ...(dto.triggerOn ? { triggerOn: dto.triggerOn } : {}),
      });
    });
  }

  /**
   * A message follow-up names a template approved on one of the organization's active accounts (404
   * TEMPLATE_NOT_FOUND, as `POST /api/v1/messaging/messages` answers) and supplies exactly its placeholders (the
   * provider refuses any other set), so a follow-up that could never send is refused when it is made. Approval can
   * still be withdrawn later; the send then records the refusal as the skip reason.
   */
  private async assertSendable(organizationId: string, message: FollowUpMessageDto): Promise<void> {
    const template = await this.messaging.approvedTemplate(
      organizationId,
      message.templateName,
      message.templateLanguage,
    );
    if (!template) {
      throw new ApiError(
        'TEMPLATE_NOT_FOUND',
        `No approved template ${message.templateName} in language ${message.templateLanguage} for this organization`,
      );
    }
    if (!variablesMatch(template.body, message.variables ?? {})) {
      throw ApiError.validation(
        'message.variables',
        `variables must supply exactly the placeholders of ${template.name}`,
      );
    }
  }

  /** An organization's recurring schedules and follow-up campaigns, newest first (a dashboard holds few). */
  async list(
    organizationId: string,
  ): Promise<{ recurringSchedules: RecurringSchedule[]; followUpCampaigns: FollowUpCampaign[] }> {
    const [recurringSchedules, followUpCampaigns] = await Promise.all([
      this.schedules.list(organizationId, MAX_LISTED),
      this.followUps.list(organizationId, MAX_LISTED),
    ]);
    return { recurringSchedules, followUpCampaigns };
  }

  /** Pauses or resumes a recurring schedule of the organization (404 for another organization's). */
  async setScheduleStatus(
    organizationId: string,
    id: string,
    status: RecurringScheduleStatus,
  ): Promise<RecurringSchedule> {
    const updated = await this.schedules.setStatus(organizationId, id, status);
    if (!updated) throw ApiError.notFound('Recurring schedule');
    return updated;
  }

  /**
   * The referenced case and assistant must exist in the organization; `FOR SHARE` keeps a concurrent delete
   * (which takes `FOR UPDATE`) waiting until this reference is committed, so it then sees and counts it.
   */
  private async lockReferences(m: Tx, organizationId: string, refs: References): Promise<void> {
    if (!refs.caseId && !refs.assistantConfigId) {
      throw ApiError.validation('caseId', 'caseId or assistantConfigId is required');
    }
    if (refs.caseId) await this.cases.lockReferenced(m, organizationId, refs.caseId);
    if (refs.assistantConfigId) await this.assistants.getForCall(m, organizationId, refs.assistantConfigId);
  }
}
