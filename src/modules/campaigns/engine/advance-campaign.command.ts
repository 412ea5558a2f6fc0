import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../common/errors/api-error';
import { CreateCallCommand, DialerCalls } from '../../calls/create-call.command';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import {
  DESTINATION_NOT_ALLOWED_REASON,
  DestinationPolicyService,
} from '../../destinations/destination-policy.service';
import { OrganizationLimitsRepository } from '../../limits/organization-limits.repository';
import { CallBilling } from '../../usage/call-billing.port';
import { Campaign } from '../campaign.entity';
import { CampaignEntry } from '../campaign-entry.entity';
import { CampaignAttemptsRepository } from '../campaign-attempts.repository';
import {
  CampaignEntriesRepository,
  DialledEntry,
  EntryOutcome,
  FinishedEntry,
  SkippedEntry,
} from '../campaign-entries.repository';
import { CampaignEvents } from '../campaign-events';
import { CampaignsRepository } from '../campaigns.repository';
import { windowOpensAt } from './calling-window';
import { CallerIdPool, DAILY_NUMBER_CAP } from './caller-id-pool';
import { NumberHealthService } from '../../number-health/number-health.service';
import { inTransaction, Tx } from '../../../infra/database/tx';

/** Attempts per number per rolling 24 hours across all of an organization's campaigns. */
export const DAILY_ATTEMPT_CAP = 3;
/** Ended reasons of a call that never reached anyone because the organization could not place it. */
const BLOCKED_REASONS = new Set(['outbound-minutes-exhausted', 'outbound-plan-required']);
/** Ended reasons of a call refused at dispatch for its number, and the skip reason and detail its entry gets. */
const SKIP_REASONS = new Map([
  [
    'do-not-call',
    { reason: 'DO_NOT_CALL', detail: 'the number was on the do-not-call list when its call was dispatched' },
  ],
  [
    DESTINATION_NOT_ALLOWED_REASON,
    {
      reason: 'DESTINATION_NOT_ALLOWED',
      detail: "the organization's destination rules refused the number when its call was dispatched",
    },
  ],
]);

export type AdvanceResult = { busy: true } | { busy: false; callIds: string[] };

/**
 * One step of one campaign, in one transaction under the campaign's row lock (so any number of engines in any
 * number of processes step a campaign one at a time): record the outcome of entries whose call finished
 * (retry, done or skipped), then, while running, pause when the organization cannot place calls, complete
 * when nothing is left, else turn due entries into calls within the pacing limits, each attempt recorded
 * under the unique (entry, attempt) pair. Calls are dispatched after the commit (the sweeper repairs a lost
 * enqueue); admission, the destination rules, the do-not-call ledger and the minutes are checked again at
 * dispatch.
 */
@Injectable()
export class AdvanceCampaignCommand {
  private readonly logger = new Logger(AdvanceCampaignCommand.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly campaigns: CampaignsRepository,
    private readonly entries: CampaignEntriesRepository,
    private readonly attempts: CampaignAttemptsRepository,
    private readonly events: CampaignEvents,
    private readonly createCall: CreateCallCommand,
    private readonly billing: CallBilling,
    private readonly doNotCall: DoNotCallService,
    private readonly limits: OrganizationLimitsRepository,
    private readonly destinations: DestinationPolicyService,
    private readonly numberHealth: NumberHealthService,
  ) {}

  execute(campaignId: string): Promise<AdvanceResult> {
    return inTransaction(this.dataSource, async (m) => {
      let campaign = await this.campaigns.lock(m, campaignId, true);
      if (!campaign) return { busy: true };
      await this.recordFinished(m, campaign, await this.entries.finished(m, campaign.id));
      const now = Date.now();
      if (campaign.status === 'scheduled' && (!campaign.startAt || campaign.startAt.getTime() <= now)) {
        campaign = await this.campaigns.setStatus(m, campaign.id, 'running');
        await this.events.record(m, campaign, 'campaign.started');
      }
      // Test campaigns place free test calls: minutes and plan never pause them.
      const blocked = campaign.livemode ? await this.billing.outboundBlockedReasonIn(m, campaign.organizationId) : null;
      if (campaign.status === 'paused' && campaign.pausedReason && !blocked) {
        // Paused by the engine for want of minutes or plan: resumes once calls can be placed again; for its
        // numbers' daily cap, once a number has room again (the next day in the window's zone).
        const waiting = campaign.pausedReason === DAILY_NUMBER_CAP && (await this.callerIds(m, campaign))!.exhausted;
        if (!waiting) campaign = await this.campaigns.setStatus(m, campaign.id, 'running');
      }
      if (campaign.status !== 'running') return { busy: false, callIds: [] };
      if (blocked) {
        campaign = await this.campaigns.setStatus(m, campaign.id, 'paused', blocked);
        await this.events.record(m, campaign, 'campaign.paused');
        return { busy: false, callIds: [] };
      }
      const { open, inProgress } = await this.entries.progress(m, campaign.id);
      if (!open) {
        campaign = await this.campaigns.setStatus(m, campaign.id, 'completed');
        await this.events.record(m, campaign, 'campaign.completed');
        return { busy: false, callIds: [] };
      }
      const callerIds = await this.callerIds(m, campaign);
      const callIds = await this.dial(m, campaign, callerIds, inProgress);
      if (callerIds?.exhausted && (await this.entries.due(m, campaign.id, 1)).length) {
        campaign = await this.campaigns.setStatus(m, campaign.id, 'paused', DAILY_NUMBER_CAP);
        await this.events.record(m, campaign, 'campaign.paused');
      }
      return { busy: false, callIds };
    });
  }

  /**
   * The campaign's caller IDs with their calls today, when it spreads over several numbers or caps them (null:
   * every call from `callFrom`, uncounted). "Today" starts at midnight in the window's zone.
   */
  private async callerIds(m: Tx, campaign: Campaign): Promise<CallerIdPool | null> {
    if (!campaign.fromNumbers && campaign.maxCallsPerNumberPerDay === null) return null;
    const numbers = campaign.fromNumbers ?? [campaign.callFrom];
    const usedToday = await this.attempts.callsFromToday(m, campaign, numbers, campaign.window?.timezone ?? 'UTC');
    const degraded = await this.numberHealth.degradedAmong(m, campaign, numbers);
    return new CallerIdPool(numbers, usedToday, campaign.maxCallsPerNumberPerDay, degraded);
  }

  /** Each finished attempt earns a retry (after the delay; the window is applied when it falls due) or ends the entry. */
  private async recordFinished(m: Tx, campaign: Campaign, finished: FinishedEntry[]): Promise<void> {
    if (!finished.length) return;
    await this.attempts.recordEnded(m, finished);
    const retry = campaign.retry;
    const outcomes = finished.map((f): EntryOutcome => {
      const base = {
        id: f.id,
        endedReason: f.endedReason,
        skipReason: null,
        skipDetail: null,
        nextAttemptAt: new Date(),
        blocked: false,
      };
      const skip = SKIP_REASONS.get(f.endedReason);
      if (skip) return { ...base, status: 'skipped', skipReason: skip.reason, skipDetail: skip.detail };
      if (BLOCKED_REASONS.has(f.endedReason)) return { ...base, status: 'pending', blocked: true };
      const counted = f.attempts - f.blockedAttempts;
      if (retry && retry.on.includes(f.endedReason) && counted < retry.maxAttempts) {
        return { ...base, status: 'pending', nextAttemptAt: new Date(Date.now() + retry.delaySeconds * 1000) };
      }
      return { ...base, status: 'done' };
    });
    await this.entries.applyOutcomes(m, outcomes);
  }

  /** `inProgress`: the campaign's entries in progress when the step began (only a step moves an entry). */
  private async dial(
    m: Tx,
    campaign: Campaign,
    callerIds: CallerIdPool | null,
    inProgress: number,
  ): Promise<string[]> {
    const { maxConcurrentCalls } = await this.limits.find(campaign.organizationId, m);
    let slots = Math.min(campaign.maxConcurrent ?? maxConcurrentCalls, maxConcurrentCalls) - inProgress;
    if (campaign.callsPerMinute) {
      slots = Math.min(slots, campaign.callsPerMinute - (await this.attempts.startedSince(m, campaign.id, 60)));
    }
    if (slots <= 0) return [];
    // More than the slots: some candidates may be postponed (window, daily cap) or skipped (destination rules,
    // do-not-call).
    const candidates = await this.entries.due(m, campaign.id, slots * 4);
    const notAllowed = await this.destinations.refusalMessages(
      m,
      campaign.organizationId,
      candidates.map((e) => e.to),
    );
    const listed = await this.doNotCall.listedAmong(
      m,
      campaign,
      candidates.map((e) => e.to),
    );
    const daily = await this.attempts.dailyByNumber(
      m,
      campaign.organizationId,
      candidates.map((e) => e.to),
    );
    const now = new Date();
    const skipped: SkippedEntry[] = [];
    const postponed: Array<{ id: string; until: Date }> = [];
    const callIds: string[] = [];
    // The step's calls, attempts and entry moves are written together after the loop: a step holds the campaign's
    // row lock, and a few statements per step instead of several per call are what lets it refill a full cap fast.
    const calls = this.createCall.dialerCallsIn(m, campaign.organizationId, campaign);
    const dialled: DialledEntry[] = [];
    for (const entry of candidates) {
      const refusal = notAllowed.get(entry.to);
      if (refusal) {
        skipped.push({ id: entry.id, reason: 'DESTINATION_NOT_ALLOWED', detail: refusal });
        continue;
      }
      if (listed.has(entry.to)) {
        skipped.push({ id: entry.id, reason: 'DO_NOT_CALL', detail: `${entry.to} is on the do-not-call list` });
        continue;
      }
      const usage = daily.get(entry.to);
      if (usage && usage.count >= DAILY_ATTEMPT_CAP) {
        postponed.push({ id: entry.id, until: new Date(usage.oldest.getTime() + 24 * 3600 * 1000) });
        continue;
      }
      const opens = windowOpensAt(campaign.window, entry.timeZone, now);
      if (opens > now) {
        postponed.push({ id: entry.id, until: opens });
        continue;
      }
      if (callIds.length >= slots) continue;
      const from = callerIds ? callerIds.pick(entry.to) : campaign.callFrom;
      // Every number reached its cap: the entry waits (the campaign pauses after this step).
      if (from === null) continue;
      const callId = await this.place(calls, campaign, entry, from);
      if (typeof callId === 'string') {
        callIds.push(callId);
        dialled.push({ entryId: entry.id, callId, to: entry.to, attempt: entry.attempts + 1 });
        daily.set(entry.to, { count: (usage?.count ?? 0) + 1, oldest: usage?.oldest ?? now });
      } else skipped.push({ id: entry.id, ...callId });
    }
    await calls.insert();
    await this.attempts.insertMany(m, campaign, dialled);
    await this.entries.markDialled(m, dialled);
    await this.entries.skip(m, skipped);
    await this.entries.postpone(m, postponed);
    return callIds;
  }

  /** The call of the entry's next attempt (written with the step's others), or why the entry cannot be called. */
  private async place(
    calls: DialerCalls,
    c: Campaign,
    entry: CampaignEntry,
    from: string,
  ): Promise<string | Omit<SkippedEntry, 'id'>> {
    try {
      return await calls.add({
        to: entry.to,
        from,
        contactId: entry.contactId ?? undefined,
        caseId: c.caseId ?? undefined,
        caseVersion: entry.caseVersion ?? undefined,
        assistantConfigId: c.assistantConfigId ?? undefined,
        firstMessage: c.firstMessage ?? undefined,
        variableValues: entry.variableValues ?? undefined,
      });
    } catch (error) {
      // Resolution failed before any write (a deleted contact or case, a required variable without a value).
      if (!(error instanceof ApiError)) throw error;
      this.logger.debug({ entryId: entry.id, code: error.code }, 'Campaign entry cannot be called');
      return { reason: error.code, detail: error.message };
    }
  }
}
