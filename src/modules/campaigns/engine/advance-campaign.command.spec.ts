import { NumberHealthService } from '../../number-health/number-health.service';
import { Logger } from '@nestjs/common';
import { ApiError } from '../../../common/errors/api-error';
import { FakeDataSource } from '../../../infra/testing/fake-data-source';
import { fakeOf } from '../../../infra/testing/fake-of';
import { freezeClock, thawClock } from '../../../infra/testing/frozen-clock';
import { CreateCallCommand } from '../../calls/create-call.command';
import { DestinationPolicyService } from '../../destinations/destination-policy.service';
import { DEFAULT_DESTINATION_RULES } from '../../destinations/destination-rules';
import { DestinationRulesRepository } from '../../destinations/destination-rules.repository';
import { DoNotCallService } from '../../do-not-call/do-not-call.service';
import { OrganizationLimitsRepository } from '../../limits/organization-limits.repository';
import { CallBilling, OutboundBlockedReason } from '../../usage/call-billing.port';
import { type Campaign, type CallingWindow, WEEKDAYS } from '../campaign.entity';
import { CampaignEvents } from '../campaign-events';
import { InMemoryCampaigns } from '../testing/in-memory-campaigns';
import { AdvanceCampaignCommand, DAILY_ATTEMPT_CAP } from './advance-campaign.command';

const NOW = '2026-03-04T15:00:00.000Z'; // a Wednesday, 15:00 UTC
const HOUR = 3600 * 1000;

describe('AdvanceCampaignCommand', () => {
  let store: InMemoryCampaigns;
  let db: FakeDataSource;
  let events: Array<{ campaignId: string; type: string }>;
  let placed: Array<{ to: string; campaignId: string; variableValues?: Record<string, string> }>;
  let blocked: OutboundBlockedReason | null;
  let listed: Set<string>;
  let maxConcurrentCalls: number;
  let refuse: Map<string, Error>;
  let degraded: Set<string>;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    freezeClock(NOW);
    store = new InMemoryCampaigns();
    db = new FakeDataSource();
    events = [];
    placed = [];
    blocked = null;
    listed = new Set();
    maxConcurrentCalls = 10;
    refuse = new Map();
    degraded = new Set();
  });
  afterEach(thawClock);

  const command = () =>
    new AdvanceCampaignCommand(
      db.asDataSource(),
      store.campaignsRepository(),
      store.entriesRepository(),
      store.attemptsRepository(),
      fakeOf<CampaignEvents>({
        record: (_tx, campaign, type) => {
          events.push({ campaignId: campaign.id, type });
          return Promise.resolve();
        },
      }),
      fakeOf<CreateCallCommand>({
        dialerCallsIn: (_tx, organizationId, campaign) => ({
          add: (dto) => {
            const error = refuse.get(dto.to);
            if (error) return Promise.reject(error);
            placed.push({ to: dto.to, campaignId: campaign.id, variableValues: dto.variableValues });
            store.outboundCalls.push({ organizationId, livemode: campaign.livemode, from: dto.from, at: new Date() });
            return Promise.resolve(`call-${placed.length}`);
          },
          insert: () => Promise.resolve(),
        }),
      }),
      fakeOf<CallBilling>({ outboundBlockedReasonIn: () => Promise.resolve(blocked) }),
      fakeOf<DoNotCallService>({
        listedAmong: (_tx, _world, numbers) => Promise.resolve(new Set(numbers.filter((n) => listed.has(n)))),
      }),
      fakeOf<OrganizationLimitsRepository>({
        find: () => Promise.resolve({ maxConcurrentCalls, inboundReserve: 0 }),
      }),
      // The real policy over the default rules: premium-rate and satellite ranges refused.
      new DestinationPolicyService(
        fakeOf<DestinationRulesRepository>({ find: () => Promise.resolve(DEFAULT_DESTINATION_RULES) }),
      ),
      // Read only by campaigns that spread over several numbers or cap them.
      fakeOf<NumberHealthService>({
        degradedAmong: (_m, _world, numbers) => Promise.resolve(new Set(numbers.filter((n) => degraded.has(n)))),
      }),
    );

  const advance = (campaign: Campaign) => command().execute(campaign.id);
  /** The calls a step placed (a step that found the campaign busy fails the spec). */
  const dialled = async (campaign: Campaign) => {
    const result = await advance(campaign);
    if (result.busy) throw new Error('the campaign was busy');
    return result.callIds;
  };
  const statusOf = (campaign: Campaign) => store.campaigns.get(campaign.id)!.status;

  describe('the campaign', () => {
    it('is busy, and untouched, while another engine holds its row lock', async () => {
      const campaign = store.addCampaign();
      store.addEntry(campaign);
      store.lockedElsewhere.add(campaign.id);
      expect(await advance(campaign)).toEqual({ busy: true });
      expect(placed).toEqual([]);
    });

    it('waits while scheduled before its start time', async () => {
      const campaign = store.addCampaign({ status: 'scheduled', startAt: new Date(Date.parse(NOW) + HOUR) });
      store.addEntry(campaign);
      expect(await advance(campaign)).toEqual({ busy: false, callIds: [] });
      expect(statusOf(campaign)).toBe('scheduled');
      expect(events).toEqual([]);
    });

    it('starts at its start time (or at once without one) and dials in the same step', async () => {
      const due = store.addCampaign({ status: 'scheduled', startAt: new Date(NOW) });
      const now = store.addCampaign({ status: 'scheduled', startAt: null });
      store.addEntry(due);
      store.addEntry(now);
      expect(await dialled(due)).toHaveLength(1);
      expect(await dialled(now)).toHaveLength(1);
      expect([statusOf(due), statusOf(now)]).toEqual(['running', 'running']);
      expect(events).toEqual([
        { campaignId: due.id, type: 'campaign.started' },
        { campaignId: now.id, type: 'campaign.started' },
      ]);
    });

    it('pauses, with the reason, when the organization cannot place calls, and dials nothing', async () => {
      const campaign = store.addCampaign();
      store.addEntry(campaign);
      blocked = 'OUTBOUND_MINUTES_EXHAUSTED';
      expect(await advance(campaign)).toEqual({ busy: false, callIds: [] });
      expect(store.campaigns.get(campaign.id)).toMatchObject({
        status: 'paused',
        pausedReason: 'OUTBOUND_MINUTES_EXHAUSTED',
      });
      expect(events).toEqual([{ campaignId: campaign.id, type: 'campaign.paused' }]);
      expect(placed).toEqual([]);
    });

    it('resumes once calls can be placed again when the engine paused it', async () => {
      const campaign = store.addCampaign({ status: 'paused', pausedReason: 'OUTBOUND_PLAN_REQUIRED' });
      store.addEntry(campaign);
      expect(await dialled(campaign)).toHaveLength(1);
      expect(store.campaigns.get(campaign.id)).toMatchObject({ status: 'running', pausedReason: null });
    });

    it('stays paused while still blocked, and stays paused when a person paused it', async () => {
      const engine = store.addCampaign({ status: 'paused', pausedReason: 'OUTBOUND_PLAN_REQUIRED' });
      const person = store.addCampaign({ status: 'paused', pausedReason: null });
      store.addEntry(engine);
      store.addEntry(person);
      blocked = 'OUTBOUND_PLAN_REQUIRED';
      expect(await advance(engine)).toEqual({ busy: false, callIds: [] });
      blocked = null;
      expect(await advance(person)).toEqual({ busy: false, callIds: [] });
      expect([statusOf(engine), statusOf(person)]).toEqual(['paused', 'paused']);
      expect(events).toEqual([]);
    });

    it("pauses on DAILY_NUMBER_CAP when every number is full, and resumes at midnight in the window's zone", async () => {
      // 10:00 in New York on Wednesday 4 March; the window is open every hour of every day.
      const window: CallingWindow = { days: [...WEEKDAYS], start: '00:00', end: '23:59', timezone: 'America/New_York' };
      const numbers = ['+14155550100', '+12125550100'];
      const campaign = store.addCampaign({ window, fromNumbers: numbers, maxCallsPerNumberPerDay: 1 });
      for (let i = 0; i < 3; i++) store.addEntry(campaign);
      expect(await dialled(campaign)).toHaveLength(2);
      expect(store.campaigns.get(campaign.id)).toMatchObject({ status: 'paused', pausedReason: 'DAILY_NUMBER_CAP' });
      expect(events).toEqual([{ campaignId: campaign.id, type: 'campaign.paused' }]);

      freezeClock('2026-03-05T04:59:00.000Z'); // 23:59 in New York, still the 4th: both numbers are full
      expect(await dialled(campaign)).toEqual([]);
      expect(statusOf(campaign)).toBe('paused');

      freezeClock('2026-03-05T05:00:00.000Z'); // midnight in New York (05:00 UTC): a new day for both numbers
      expect(await dialled(campaign)).toHaveLength(1);
      expect(store.campaigns.get(campaign.id)).toMatchObject({ status: 'running', pausedReason: null });
      expect(store.outboundCalls.map((c) => c.from).sort()).toEqual([...numbers, numbers[0]].sort());
    });

    it('leaves a degraded number out while the campaign has a healthy one', async () => {
      const numbers = ['+14155550100', '+14155550101'];
      const campaign = store.addCampaign({ fromNumbers: numbers });
      for (let i = 0; i < 3; i++) store.addEntry(campaign);
      degraded.add(numbers[0]);
      expect(await dialled(campaign)).toHaveLength(3);
      expect(new Set(store.outboundCalls.map((c) => c.from))).toEqual(new Set([numbers[1]]));
    });

    it('never asks billing about a test campaign: its calls are free', async () => {
      const campaign = store.addCampaign({ livemode: false });
      store.addEntry(campaign);
      blocked = 'OUTBOUND_MINUTES_EXHAUSTED';
      expect(await dialled(campaign)).toHaveLength(1);
      expect(statusOf(campaign)).toBe('running');
    });

    it('completes when no entry is left open', async () => {
      const campaign = store.addCampaign();
      store.addEntry(campaign, { status: 'done' });
      store.addEntry(campaign, { status: 'skipped' });
      expect(await advance(campaign)).toEqual({ busy: false, callIds: [] });
      expect(statusOf(campaign)).toBe('completed');
      expect(events).toEqual([{ campaignId: campaign.id, type: 'campaign.completed' }]);
    });

    it('does nothing for a campaign that is neither due nor running', async () => {
      for (const status of ['draft', 'completed', 'cancelled'] as const) {
        const campaign = store.addCampaign({ status });
        store.addEntry(campaign);
        expect(await advance(campaign)).toEqual({ busy: false, callIds: [] });
        expect(statusOf(campaign)).toBe(status);
      }
      expect(placed).toEqual([]);
    });

    it('runs each step in one transaction, committed', async () => {
      const campaign = store.addCampaign();
      store.addEntry(campaign);
      await advance(campaign);
      expect(db.transactions.map((t) => t.outcome)).toEqual(['committed']);
    });
  });

  describe('a finished attempt', () => {
    const retry = { on: ['customer-did-not-answer'], delaySeconds: 600, maxAttempts: 3 };

    /** An entry dialled once before (attempts as given), whose call just ended with `reason`. */
    const finished = (
      campaign: Campaign,
      reason: string,
      fields: { attempts?: number; blockedAttempts?: number } = {},
    ) => {
      const entry = store.addEntry(campaign, {
        status: 'in_progress',
        attempts: fields.attempts ?? 1,
        blockedAttempts: fields.blockedAttempts ?? 0,
        currentCallId: `ended-${store.entries.length}`,
      });
      store.attempts.push({
        entryId: entry.id,
        campaignId: campaign.id,
        organizationId: campaign.organizationId,
        to: entry.to,
        attempt: entry.attempts,
        callId: entry.currentCallId!,
        at: new Date(Date.parse(NOW) - 30 * 24 * HOUR),
        endedReason: null,
      });
      store.finishCall(entry, reason);
      return entry;
    };

    it('earns a retry after the delay when its reason is retried and attempts are left', async () => {
      const campaign = store.addCampaign({ retry, status: 'paused' });
      const entry = finished(campaign, 'customer-did-not-answer', { attempts: 2 });
      await advance(campaign);
      expect(store.entry(entry.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date(Date.parse(NOW) + 600_000),
        lastEndedReason: 'customer-did-not-answer',
        currentCallId: null,
      });
      expect(store.attempts.find((a) => a.entryId === entry.id)!.endedReason).toBe('customer-did-not-answer');
    });

    it('is done at the last attempt, on a reason not retried, or without a retry policy', async () => {
      const withRetry = store.addCampaign({ retry, status: 'paused' });
      const last = finished(withRetry, 'customer-did-not-answer', { attempts: 3 });
      const other = finished(withRetry, 'customer-ended-call');
      const without = store.addCampaign({ retry: null, status: 'paused' });
      const noPolicy = finished(without, 'customer-did-not-answer');
      await advance(withRetry);
      await advance(without);
      expect([last, other, noPolicy].map((e) => store.entry(e.id).status)).toEqual(['done', 'done', 'done']);
    });

    it('does not count attempts blocked for want of minutes or plan', async () => {
      const campaign = store.addCampaign({ retry, status: 'paused' });
      const entry = finished(campaign, 'customer-did-not-answer', { attempts: 3, blockedAttempts: 1 });
      await advance(campaign);
      expect(store.entry(entry.id).status).toBe('pending');
    });

    it('blocked for want of minutes or plan is tried again at once, and counted as blocked', async () => {
      const campaign = store.addCampaign({ retry: null, status: 'paused' });
      const minutes = finished(campaign, 'outbound-minutes-exhausted');
      const plan = finished(campaign, 'outbound-plan-required');
      await advance(campaign);
      for (const e of [minutes, plan]) {
        expect(store.entry(e.id)).toMatchObject({
          status: 'pending',
          blockedAttempts: 1,
          nextAttemptAt: new Date(NOW),
        });
      }
    });

    it('on the do-not-call list skips the entry for good, whatever the retry policy', async () => {
      const campaign = store.addCampaign({ retry: { ...retry, on: ['do-not-call'] }, status: 'paused' });
      const entry = finished(campaign, 'do-not-call');
      await advance(campaign);
      expect(store.entry(entry.id)).toMatchObject({
        status: 'skipped',
        skipReason: 'DO_NOT_CALL',
        skipDetail: expect.stringMatching(/do-not-call list/),
      });
    });
  });

  describe('dialling', () => {
    it('places a call per due entry, records the attempt and marks the entry dialled', async () => {
      const campaign = store.addCampaign();
      const entry = store.addEntry(campaign, { variableValues: { name: 'Ada' }, attempts: 1 });
      const callIds = await dialled(campaign);
      expect(callIds).toEqual(['call-1']);
      expect(placed).toEqual([{ to: entry.to, campaignId: campaign.id, variableValues: { name: 'Ada' } }]);
      expect(store.entry(entry.id)).toMatchObject({ status: 'in_progress', attempts: 2, currentCallId: 'call-1' });
      expect(store.attempts).toEqual([
        expect.objectContaining({ entryId: entry.id, attempt: 2, callId: 'call-1', to: entry.to }),
      ]);
    });

    it('leaves entries not due yet', async () => {
      const campaign = store.addCampaign();
      store.addEntry(campaign, { nextAttemptAt: new Date(Date.parse(NOW) + 1000) });
      expect(await dialled(campaign)).toEqual([]);
    });

    it("fills the free slots: the campaign's and the organization's concurrency less the calls in progress", async () => {
      const campaign = store.addCampaign({ maxConcurrent: 3 });
      store.addEntry(campaign, { status: 'in_progress', currentCallId: 'live-1' });
      for (let i = 0; i < 5; i++) store.addEntry(campaign);
      expect(await dialled(campaign)).toHaveLength(2);
      maxConcurrentCalls = 1;
      expect(await dialled(campaign)).toEqual([]);
      // The remaining entries are left due, neither postponed nor skipped.
      expect(store.entries.filter((e) => e.status === 'pending' && e.nextAttemptAt.getTime() === 0)).toHaveLength(3);
    });

    it('takes the organization limit when the campaign sets none or a higher one', async () => {
      maxConcurrentCalls = 2;
      const campaign = store.addCampaign({ maxConcurrent: 50 });
      for (let i = 0; i < 4; i++) store.addEntry(campaign);
      expect(await dialled(campaign)).toHaveLength(2);
    });

    it('paces to callsPerMinute, counting the attempts started in the last minute', async () => {
      const campaign = store.addCampaign({ callsPerMinute: 3 });
      for (let i = 0; i < 5; i++) store.addEntry(campaign);
      const at = (agoMs: number) => new Date(Date.parse(NOW) - agoMs);
      const earlier = { campaignId: campaign.id, organizationId: campaign.organizationId, to: '+14155550000' };
      store.addAttempt({ ...earlier, entryId: 'x', attempt: 1, at: at(30_000) });
      store.addAttempt({ ...earlier, entryId: 'y', attempt: 1, at: at(61_000) });
      expect(await dialled(campaign)).toHaveLength(2);
      expect(await dialled(campaign)).toEqual([]);
    });

    it('skips an entry whose number the destination rules refuse, and dials the rest', async () => {
      const campaign = store.addCampaign();
      const premium = store.addEntry(campaign, { to: '+19005550100' });
      store.addEntry(campaign);
      expect(await dialled(campaign)).toHaveLength(1);
      expect(store.entry(premium.id)).toMatchObject({
        status: 'skipped',
        skipReason: 'DESTINATION_NOT_ALLOWED',
        skipDetail: expect.stringContaining('+19005550100'),
      });
    });

    it('skips an entry whose number is on the do-not-call list', async () => {
      const campaign = store.addCampaign();
      const entry = store.addEntry(campaign);
      listed.add(entry.to);
      expect(await dialled(campaign)).toEqual([]);
      expect(store.entry(entry.id)).toMatchObject({
        status: 'skipped',
        skipReason: 'DO_NOT_CALL',
        skipDetail: `${entry.to} is on the do-not-call list`,
      });
    });

    it(`postpones a number called ${DAILY_ATTEMPT_CAP} times in 24 hours until its oldest attempt is a day old`, async () => {
      const campaign = store.addCampaign();
      const other = store.addCampaign();
      const entry = store.addEntry(campaign);
      const oldest = new Date(Date.parse(NOW) - 20 * HOUR);
      for (let i = 0; i < DAILY_ATTEMPT_CAP; i++) {
        store.addAttempt({
          entryId: `other-${i}`,
          campaignId: other.id,
          organizationId: campaign.organizationId,
          to: entry.to,
          attempt: 1,
          at: new Date(oldest.getTime() + i * HOUR),
        });
      }
      expect(await dialled(campaign)).toEqual([]);
      expect(store.entry(entry.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date(oldest.getTime() + 24 * HOUR),
      });
    });

    it('counts the calls placed in this step toward the daily cap of their number', async () => {
      const campaign = store.addCampaign();
      const first = store.addEntry(campaign);
      const second = store.addEntry(campaign, { to: first.to });
      for (let i = 0; i < DAILY_ATTEMPT_CAP - 1; i++) {
        store.addAttempt({
          entryId: `before-${i}`,
          campaignId: campaign.id,
          organizationId: campaign.organizationId,
          to: first.to,
          attempt: 1,
          at: new Date(Date.parse(NOW) - 2 * HOUR),
        });
      }
      expect(await dialled(campaign)).toHaveLength(1);
      expect(store.entry(first.id).status).toBe('in_progress');
      expect(store.entry(second.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date(Date.parse(NOW) + 22 * HOUR),
      });
    });

    it("postpones an entry outside its calling window to the window's next opening in the entry's zone", async () => {
      const window = { days: ['wed' as const], start: '09:00', end: '17:00', timezone: 'UTC' };
      const campaign = store.addCampaign({ window });
      const paris = store.addEntry(campaign, { timeZone: 'Europe/Paris' }); // 16:00 there: open
      const tokyo = store.addEntry(campaign, { timeZone: 'Asia/Tokyo' }); // 00:00 Thursday there: closed until Wednesday
      expect(await dialled(campaign)).toHaveLength(1);
      expect(store.entry(paris.id).status).toBe('in_progress');
      expect(store.entry(tokyo.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date('2026-03-11T00:00:00.000Z'), // Wednesday 09:00 in Tokyo
      });
    });

    it('skips an entry whose call cannot be created, with the reason, and dials the next', async () => {
      const campaign = store.addCampaign();
      const gone = store.addEntry(campaign);
      const next = store.addEntry(campaign);
      refuse.set(gone.to, ApiError.validation('variableValues.date', 'required case variable "date" has no value'));
      expect(await dialled(campaign)).toEqual(['call-1']);
      expect(store.entry(gone.id)).toMatchObject({
        status: 'skipped',
        skipReason: 'VALIDATION_ERROR',
        skipDetail: 'variableValues.date: required case variable "date" has no value',
      });
      expect(store.entry(next.id).status).toBe('in_progress');
    });

    it('rolls the step back on a fault that is not a refusal', async () => {
      const campaign = store.addCampaign();
      const entry = store.addEntry(campaign);
      refuse.set(entry.to, new Error('connection lost'));
      await expect(advance(campaign)).rejects.toThrow('connection lost');
      expect(db.transactions.map((t) => t.outcome)).toEqual(['rolled back']);
    });
  });
});
