import { Logger } from '@nestjs/common';
import { FakeDataSource } from '../../../infra/testing/fake-data-source';
import { fakeOf } from '../../../infra/testing/fake-of';
import { freezeClock, thawClock } from '../../../infra/testing/frozen-clock';
import { nextOccurrence } from '../../automations/next-occurrence';
import { OccurrencesService } from '../../automations/occurrences.service';
import type { RecurringSchedule } from '../../automations/recurring-schedule.entity';
import { RecurringSchedulesRepository } from '../../automations/recurring-schedules.repository';
import type { Campaign } from '../campaign.entity';
import { CampaignOrigin, CreateCampaignCommand } from '../create-campaign.command';
import type { CreateCampaignDto } from '../dto/create-campaign.dto';
import { RecurringScheduleRunnerJob } from './recurring-schedule-runner.job';

const NOW = '2026-03-04T08:30:00.000Z';
const DAILY_AT_9 = 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0';

describe('RecurringScheduleRunnerJob', () => {
  let due: RecurringSchedule[];
  let next: Map<string, Date | null>;
  let placed: Array<{ organizationId: string; dto: CreateCampaignDto; origin: CampaignOrigin }>;
  let failing: Set<string>;
  let db: FakeDataSource;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    freezeClock(NOW);
    due = [];
    next = new Map();
    placed = [];
    failing = new Set();
    db = new FakeDataSource();
  });
  afterEach(thawClock);

  const schedule = (fields: Partial<RecurringSchedule> = {}): RecurringSchedule =>
    ({
      id: `schedule-${due.length + 1}`,
      organizationId: 'org-1',
      caseId: 'case-1',
      assistantConfigId: null,
      status: 'active',
      rrule: DAILY_AT_9,
      timeZone: 'Europe/Paris',
      callFrom: '+14155550100',
      audience: { groupId: 'group-1' },
      nextOccurrenceAt: new Date('2026-03-04T08:00:00.000Z'), // 09:00 in Paris
      createdAt: new Date('2026-03-01T00:00:00.000Z'),
      ...fields,
    }) as RecurringSchedule;

  const runner = (occurrences: Partial<OccurrencesService> = {}) =>
    new RecurringScheduleRunnerJob(
      db.asDataSource(),
      fakeOf<RecurringSchedulesRepository>({
        lockDue: (_m, limit) => Promise.resolve(due.slice(0, limit)),
        setNextOccurrence: (_m, id, at) => {
          next.set(id, at);
          return Promise.resolve();
        },
      }),
      fakeOf<CreateCampaignCommand>({
        executeIn: (_tx, organizationId, dto, origin) => {
          if (failing.has(origin.source!.id)) return Promise.reject(new Error('audience group deleted'));
          placed.push({ organizationId, dto, origin });
          return Promise.resolve({ id: 'campaign-1' } as Campaign);
        },
      }),
      fakeOf<OccurrencesService>({
        // The rule's arithmetic itself, without the thread the service runs it on.
        next: (rule, zone, dtstart, after) => Promise.resolve(nextOccurrence(rule, zone, dtstart, after)),
        ...occurrences,
      }),
    );

  it("places each due occurrence's campaign, keyed by (schedule, occurrence), and moves to the next occurrence", async () => {
    due = [schedule()];
    expect(await runner().tick()).toBe(1);
    expect(placed).toEqual([
      {
        organizationId: 'org-1',
        dto: {
          name: 'Recurring schedule schedule-1 at 2026-03-04T08:00:00.000Z',
          from: '+14155550100',
          caseId: 'case-1',
          assistantConfigId: undefined,
          audience: { groupId: 'group-1' },
          startAt: '2026-03-04T08:00:00.000Z',
        },
        origin: {
          livemode: true,
          source: { type: 'recurring_schedule', id: 'schedule-1', key: '2026-03-04T08:00:00.000Z' },
        },
      },
    ]);
    expect(next.get('schedule-1')).toEqual(new Date('2026-03-05T08:00:00.000Z'));
    expect(db.transactions.map((t) => t.outcome)).toEqual(['committed']);
  });

  it('skips the occurrences missed while no scheduler ran: the next is after now, not after the missed one', async () => {
    due = [schedule({ nextOccurrenceAt: new Date('2026-02-20T08:00:00.000Z') })];
    await runner().tick();
    expect(placed).toHaveLength(1);
    expect(next.get('schedule-1')).toEqual(new Date('2026-03-05T08:00:00.000Z'));
  });

  it('skips an occurrence that cannot be placed, and still places the next schedules and moves every one on', async () => {
    due = [schedule({ id: 'broken' }), schedule({ id: 'fine' })];
    failing.add('broken');
    expect(await runner().tick()).toBe(2);
    expect(placed.map((p) => p.origin.source!.id)).toEqual(['fine']);
    expect([...next.keys()]).toEqual(['broken', 'fine']);
    expect(db.transactions.map((t) => t.outcome)).toEqual(['committed']);
  });

  it('stops a schedule whose series has ended or whose next occurrence cannot be found in time', async () => {
    due = [schedule({ id: 'ended', rrule: 'FREQ=DAILY;COUNT=1' }), schedule({ id: 'slow' })];
    const slow = runner({
      next: (rule, zone, dtstart, after) =>
        rule === DAILY_AT_9
          ? Promise.reject(new Error('no occurrence within the budget'))
          : Promise.resolve(nextOccurrence(rule, zone, dtstart, after)),
    });
    await slow.tick();
    expect(next.get('ended')).toBeNull();
    expect(next.get('slow')).toBeNull();
  });

  it("places with the schedule's assistant when it names no case", async () => {
    due = [schedule({ caseId: null, assistantConfigId: 'assistant-1' })];
    await runner().tick();
    expect(placed[0].dto).toMatchObject({ caseId: undefined, assistantConfigId: 'assistant-1' });
  });

  it('does nothing when no schedule is due', async () => {
    expect(await runner().tick()).toBe(0);
    expect(placed).toEqual([]);
  });
});
