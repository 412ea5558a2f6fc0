import { DateTime } from 'luxon';
import { fakeOf } from '../../../infra/testing/fake-of';
import { Campaign, CampaignStatus } from '../campaign.entity';
import { CampaignEntry } from '../campaign-entry.entity';
import { CampaignAttemptsRepository } from '../campaign-attempts.repository';
import { CampaignEntriesRepository, EntryOutcome, FinishedEntry } from '../campaign-entries.repository';
import { ENTRY_MOVES, OPEN_ENTRY_STATUSES } from '../campaign-entry-transitions';
import { movableTo } from '../campaign-state';
import { CampaignsRepository } from '../campaigns.repository';

const DAY_MS = 24 * 3600 * 1000;

export interface StoredAttempt {
  entryId: string;
  campaignId: string;
  organizationId: string;
  to: string;
  attempt: number;
  callId: string;
  at: Date;
  endedReason: string | null;
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${++sequence}`;

/**
 * The campaign tables in memory, for unit specs of the campaign engine: campaigns, entries and attempts, moved
 * by the same transition tables as the SQL (ENTRY_MOVES, movableTo), and the final reasons of the calls entries
 * wait on. Its repositories answer as CampaignsRepository, CampaignEntriesRepository and
 * CampaignAttemptsRepository do (their SQL is pinned by test/dialer/campaign-step.medium-spec.ts); a method the
 * engine does not use throws.
 */
export class InMemoryCampaigns {
  readonly campaigns = new Map<string, Campaign>();
  readonly entries: CampaignEntry[] = [];
  readonly attempts: StoredAttempt[] = [];
  /** Calls that reached a final status, with their ended reason (or status when none). */
  readonly finishedCalls = new Map<string, string>();
  /** Campaigns whose row lock another engine holds. */
  readonly lockedElsewhere = new Set<string>();
  /** Outbound calls placed, by number: what a number's daily cap counts (the `calls` table in SQL). */
  readonly outboundCalls: Array<{ organizationId: string; livemode: boolean; from: string; at: Date }> = [];

  addCampaign(fields: Partial<Campaign> = {}): Campaign {
    const campaign: Campaign = {
      id: nextId('campaign'),
      organizationId: 'org-1',
      name: 'Campaign',
      status: 'running',
      pausedReason: null,
      callFrom: '+14155550100',
      fromNumbers: null,
      maxCallsPerNumberPerDay: null,
      caseId: null,
      variants: null,
      assistantConfigId: null,
      firstMessage: null,
      audience: { rows: 1 },
      startAt: null,
      window: null,
      maxConcurrent: null,
      callsPerMinute: null,
      retry: null,
      voicemail: null,
      livemode: true,
      sourceType: null,
      sourceId: null,
      sourceKey: null,
      createdAt: new Date(),
      updatedAt: new Date(),
      ...fields,
    };
    this.campaigns.set(campaign.id, campaign);
    return campaign;
  }

  addEntry(campaign: Campaign, fields: Partial<CampaignEntry> = {}): CampaignEntry {
    const entry: CampaignEntry = {
      id: nextId('entry'),
      campaignId: campaign.id,
      organizationId: campaign.organizationId,
      to: `+1415555${String(1000 + this.entries.length).slice(-4)}`,
      contactId: null,
      variableValues: null,
      caseVersion: null,
      timeZone: 'UTC',
      status: 'pending',
      skipReason: null,
      skipDetail: null,
      attempts: 0,
      blockedAttempts: 0,
      nextAttemptAt: new Date(0),
      currentCallId: null,
      lastEndedReason: null,
      createdAt: new Date(),
      updatedAt: new Date(),
      ...fields,
    };
    this.entries.push(entry);
    return entry;
  }

  /** An attempt made earlier (another campaign's, for the daily cap), `at` in the past. */
  addAttempt(attempt: Omit<StoredAttempt, 'endedReason' | 'callId'> & { callId?: string }): void {
    this.attempts.push({ endedReason: null, callId: nextId('call'), ...attempt });
  }

  /** The entry's current call reaches a final status with this ended reason. */
  finishCall(entry: CampaignEntry, reason: string): void {
    if (!entry.currentCallId) throw new Error(`entry ${entry.id} has no call`);
    this.finishedCalls.set(entry.currentCallId, reason);
  }

  entry(id: string): CampaignEntry {
    const found = this.entries.find((e) => e.id === id);
    if (!found) throw new Error(`no entry ${id}`);
    return found;
  }

  campaignsRepository(): CampaignsRepository {
    return fakeOf<CampaignsRepository>(
      {
        lock: (_m, id, skipLocked) => {
          if (skipLocked && this.lockedElsewhere.has(id)) return Promise.resolve(null);
          const c = this.campaigns.get(id);
          return Promise.resolve(c ? { ...c } : null);
        },
        setStatus: (_m, id, status: CampaignStatus, pausedReason: string | null = null) => {
          const c = this.campaigns.get(id);
          if (!c || !movableTo(status).includes(c.status)) throw new Error(`Campaign ${id} cannot move to ${status}`);
          Object.assign(c, { status, pausedReason, updatedAt: new Date() });
          return Promise.resolve({ ...c });
        },
      },
      'CampaignsRepository',
    );
  }

  entriesRepository(): CampaignEntriesRepository {
    const inStatus = (e: CampaignEntry, statuses: readonly string[]) => statuses.includes(e.status);
    return fakeOf<CampaignEntriesRepository>(
      {
        finished: (_m, campaignId) =>
          Promise.resolve(
            this.entries
              .filter((e) => e.campaignId === campaignId && inStatus(e, ENTRY_MOVES.applyOutcome.from))
              .filter((e) => this.finishedCalls.has(e.currentCallId!))
              .map((e): FinishedEntry => ({
                id: e.id,
                attempts: e.attempts,
                blockedAttempts: e.blockedAttempts,
                callId: e.currentCallId!,
                endedReason: this.finishedCalls.get(e.currentCallId!)!,
              })),
          ),
        applyOutcomes: (_m, outcomes: readonly EntryOutcome[]) => {
          for (const o of outcomes) {
            const e = this.entry(o.id);
            if (!inStatus(e, ENTRY_MOVES.applyOutcome.from)) continue;
            Object.assign(e, {
              status: o.status,
              skipReason: o.skipReason,
              skipDetail: o.skipDetail,
              nextAttemptAt: o.nextAttemptAt,
              blockedAttempts: e.blockedAttempts + (o.blocked ? 1 : 0),
              lastEndedReason: o.endedReason,
              currentCallId: null,
            });
          }
          return Promise.resolve();
        },
        progress: (_m, campaignId) => {
          const own = this.entries.filter((e) => e.campaignId === campaignId);
          return Promise.resolve({
            open: own.some((e) => inStatus(e, OPEN_ENTRY_STATUSES)),
            inProgress: own.filter((e) => inStatus(e, ENTRY_MOVES.applyOutcome.from)).length,
          });
        },
        due: (_m, campaignId, limit) =>
          Promise.resolve(
            this.entries
              .filter(
                (e) =>
                  e.campaignId === campaignId &&
                  inStatus(e, ENTRY_MOVES.dial.from) &&
                  e.nextAttemptAt.getTime() <= Date.now(),
              )
              .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id.localeCompare(b.id))
              .slice(0, limit)
              .map((e) => ({ ...e })),
          ),
        postpone: (_m, postponed) => {
          for (const p of postponed) this.entry(p.id).nextAttemptAt = p.until;
          return Promise.resolve();
        },
        skip: (_m, skipped) => {
          for (const s of skipped) {
            const e = this.entry(s.id);
            if (inStatus(e, ENTRY_MOVES.skip.from))
              Object.assign(e, { status: ENTRY_MOVES.skip.to[0], skipReason: s.reason, skipDetail: s.detail });
          }
          return Promise.resolve();
        },
        markDialled: (_m, dialled) => {
          for (const { entryId, callId } of dialled) {
            const e = this.entry(entryId);
            if (inStatus(e, ENTRY_MOVES.dial.from)) {
              Object.assign(e, { status: ENTRY_MOVES.dial.to[0], attempts: e.attempts + 1, currentCallId: callId });
            }
          }
          return Promise.resolve();
        },
      },
      'CampaignEntriesRepository',
    );
  }

  attemptsRepository(): CampaignAttemptsRepository {
    return fakeOf<CampaignAttemptsRepository>(
      {
        insertMany: (_m, campaign, dialled) => {
          for (const d of dialled) {
            // The unique (entry, attempt) pair of the table.
            if (this.attempts.some((x) => x.entryId === d.entryId && x.attempt === d.attempt)) {
              throw new Error(`attempt ${d.attempt} of entry ${d.entryId} already recorded`);
            }
            this.attempts.push({
              ...d,
              campaignId: campaign.id,
              organizationId: campaign.organizationId,
              at: new Date(),
              endedReason: null,
            });
          }
          return Promise.resolve();
        },
        recordEnded: (_m, ended) => {
          for (const x of ended) {
            for (const a of this.attempts) if (a.callId === x.callId) a.endedReason = x.endedReason;
          }
          return Promise.resolve();
        },
        startedSince: (_m, campaignId, seconds) =>
          Promise.resolve(
            this.attempts.filter((a) => a.campaignId === campaignId && a.at.getTime() > Date.now() - seconds * 1000)
              .length,
          ),
        callsFromToday: (_m, world, numbers, timeZone) => {
          const midnight = DateTime.now().setZone(timeZone).startOf('day').toMillis();
          const counts = new Map<string, number>();
          for (const c of this.outboundCalls) {
            if (c.organizationId !== world.organizationId || c.livemode !== world.livemode) continue;
            if (!numbers.includes(c.from) || c.at.getTime() < midnight) continue;
            counts.set(c.from, (counts.get(c.from) ?? 0) + 1);
          }
          return Promise.resolve(counts);
        },
        dailyByNumber: (_m, organizationId, numbers) => {
          const byNumber = new Map<string, { count: number; oldest: Date }>();
          for (const a of this.attempts) {
            if (a.organizationId !== organizationId || !numbers.includes(a.to)) continue;
            if (a.at.getTime() <= Date.now() - DAY_MS) continue;
            const seen = byNumber.get(a.to);
            byNumber.set(a.to, {
              count: (seen?.count ?? 0) + 1,
              oldest: seen && seen.oldest < a.at ? seen.oldest : a.at,
            });
          }
          return Promise.resolve(byNumber);
        },
      },
      'CampaignAttemptsRepository',
    );
  }
}
