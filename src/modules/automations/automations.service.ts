import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { OutboundAssistant } from '../assistants/outbound-assistant.entity';
import { CasesService } from '../cases/cases.service';
import { RULE_HORIZON_DAYS, ruleProblem } from './next-occurrence';
import { OccurrencesService, RULE_CHECK_BUDGET_MS } from './occurrences.service';
import { MessagingAccountsService } from '../messaging/messaging-accounts.service';
import { variablesMatch } from '../messaging/template-placeholders';
import { CreateFollowUpCampaignDto, FollowUpMessageDto } from './dto/create-follow-up-campaign.dto';
import { CreateRecurringScheduleDto } from './dto/create-recurring-schedule.dto';
import { FollowUpCampaign } from './follow-up-campaign.entity';
import { RecurringSchedule, RecurringScheduleStatus } from './recurring-schedule.entity';
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
      const schedule = await m.save(
        m.create(RecurringSchedule, {
          id: uuidv7(),
          organizationId,
          caseId: dto.caseId ?? null,
          assistantConfigId: dto.assistantConfigId ?? null,
          status,
          rrule: dto.rrule ?? null,
          timeZone,
          callFrom: dto.from ?? null,
          audience: dto.audience ? { ...dto.audience } : null,
          nextOccurrenceAt: null,
        }),
      );
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
      await m.update(RecurringSchedule, { id: schedule.id }, { nextOccurrenceAt: schedule.nextOccurrenceAt });
      return schedule;
    });
  }

  /**
   * Pauses or resumes a schedule. Occurrences that fell while paused are not made up: a resumed schedule fires
   * from its next occurrence after now.
   */
  async setRecurringScheduleStatus(id: string, status: RecurringScheduleStatus): Promise<RecurringSchedule> {
    const schedule = await this.dataSource.manager.findOneBy(RecurringSchedule, { id });
    if (!schedule) throw ApiError.notFound('Recurring schedule');
    const now = new Date();
    const next = schedule.rrule
      ? await this.occurrences.next(schedule.rrule, schedule.timeZone, schedule.createdAt, now)
      : null;
    await this.dataSource.manager.update(RecurringSchedule, { id }, { status, nextOccurrenceAt: next });
    return this.dataSource.manager.findOneByOrFail(RecurringSchedule, { id });
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
      return m.save(
        m.create(FollowUpCampaign, {
          id: uuidv7(),
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
        }),
      );
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
    const order = { createdAt: 'DESC', id: 'DESC' } as const;
    const [recurringSchedules, followUpCampaigns] = await Promise.all([
      this.dataSource.getRepository(RecurringSchedule).find({ where: { organizationId }, order, take: MAX_LISTED }),
      this.dataSource.getRepository(FollowUpCampaign).find({ where: { organizationId }, order, take: MAX_LISTED }),
    ]);
    return { recurringSchedules, followUpCampaigns };
  }

  /** Pauses or resumes a recurring schedule of the organization (404 for another organization's). */
  async setScheduleStatus(
    organizationId: string,
    id: string,
    status: RecurringScheduleStatus,
  ): Promise<RecurringSchedule> {
    const repo = this.dataSource.getRepository(RecurringSchedule);
    const { affected } = await repo.update({ id, organizationId }, { status });
    if (!affected) throw ApiError.notFound('Recurring schedule');
    return repo.findOneByOrFail({ id, organizationId });
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
    if (refs.assistantConfigId) {
      const found = await m
        .createQueryBuilder(OutboundAssistant, 'a')
        .setLock('pessimistic_read')
        .where('a.id = :id AND a.organizationId = :organizationId', { id: refs.assistantConfigId, organizationId })
        .getExists();
      if (!found) throw ApiError.notFound('Outbound assistant');
    }
  }
}
