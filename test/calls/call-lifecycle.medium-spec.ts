import { Logger } from '@nestjs/common';
import { NumberHealthRepository } from '../../src/modules/number-health/number-health.repository';
import { RecordNumberOutcomeCommand } from '../../src/modules/number-health/record-number-outcome.command';
import { DataSource } from 'typeorm';
import { CursorCodec } from '../../src/common/pagination/cursor-codec';
import { uuidv7 } from '../../src/common/ids/uuid-v7';
import { AppConfig } from '../../src/infra/config/app-config';
import { Metrics } from '../../src/infra/metrics/metrics';
import { JobQueue } from '../../src/infra/queue/job-queue';
import { Call } from '../../src/modules/calls/call.entity';
import { CallEventsService } from '../../src/modules/calls/call-events.service';
import { CallsRepository } from '../../src/modules/calls/calls.repository';
import { CallAdmissionQueueJob } from '../../src/modules/calls/dispatch/call-admission-queue.job';
import { CallEndListeners } from '../../src/modules/calls/call-end-listeners';
import { CallDispatchQueue } from '../../src/modules/calls/dispatch/call-dispatch-queue';
import { CallDispatcherJob } from '../../src/modules/calls/dispatch/call-dispatcher.job';
import { ToolCallsService } from '../../src/modules/calls/tool-calls.service';
import {
  EndOfCallReport,
  PlaceCallResult,
  ProviderCallState,
  VoiceProvider,
} from '../../src/modules/calls/voice/voice-provider';
import { placementWithoutFallbacks } from '../../src/modules/calls/testing/no-fallbacks';
import { VoicePlatforms } from '../../src/modules/calls/voice/voice-platforms';
import { fakeOf } from '../../src/infra/testing/fake-of';
import { AddDoNotCallCommand } from '../../src/modules/do-not-call/add-do-not-call.command';
import { DoNotCallEntry } from '../../src/modules/do-not-call/do-not-call-entry.entity';
import { DoNotCallRepository } from '../../src/modules/do-not-call/do-not-call.repository';
import { DoNotCallService } from '../../src/modules/do-not-call/do-not-call.service';
import { CallAdmission } from '../../src/modules/limits/call-admission';
import { CallCountsRepository } from '../../src/modules/limits/call-counts.repository';
import { OrganizationLimit } from '../../src/modules/limits/organization-limit.entity';
import { OrganizationLimitsRepository } from '../../src/modules/limits/organization-limits.repository';
import { OutboxEvent } from '../../src/modules/outbox/outbox-event.entity';
import { OutboxEventsRepository } from '../../src/modules/outbox/outbox-events.repository';
import { OutboxService } from '../../src/modules/outbox/outbox.service';
import { OutboxWakeup } from '../../src/modules/outbox/outbox-wakeup';
import { CallBillingService } from '../../src/modules/usage/call-billing.service';
import { HoldingsRepository } from '../../src/modules/usage/holdings.repository';
import { ReserveMinutesCommand } from '../../src/modules/usage/reserve-minutes.command';
import { SettleCallCommand } from '../../src/modules/usage/settle-call.command';
import { openTestDataSource } from '../support/test-data-source';
import { LEDGER_ENTITIES, ledgerRepositories, subscribedOrganization } from '../usage/ledger-parts';
import { DestinationPolicyService } from '../../src/modules/destinations/destination-policy.service';
import { DestinationRulesRow } from '../../src/modules/destinations/destination-rules.entity';
import { DestinationRulesRepository } from '../../src/modules/destinations/destination-rules.repository';

/**
 * A call's dispatch and finish against real PostgreSQL, through the real dispatcher job and call events
 * service: every dispatcher is its own instance (as in its own worker process, so none share a batch), the
 * voice platform is a strict fake, and the job queue a recorder of what would be enqueued (the queue's own
 * semantics are not under test). Two dispatchers never both start a call, the organization's admission lock
 * keeps its live calls within maxConcurrentCalls, and a finish applied twice counts once.
 */
describe('call lifecycle (PostgreSQL)', () => {
  // Nest's console logger would print the services' debug lines into the run's output. Its logger is the
  // framework's one global: the next app this worker boots sets its own.
  beforeAll(() => Logger.overrideLogger(false));
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let calls: CallsRepository;
  let placed: string[];
  let enqueued: { name: string; data: unknown }[];
  let dispatcher: () => CallDispatcherJob;
  let events: CallEventsService;
  /** A call events service of its own, as in another worker process. */
  let newEvents: () => CallEventsService;

  /** The voice platform: accepts every call once; a second placement of a call is a bug here. */
  class FakeVoice extends VoiceProvider {
    readonly reportGraceMs = 0;

    async placeCall(call: Call): Promise<PlaceCallResult> {
      if (placed.includes(call.id)) throw new Error(`call ${call.id} placed twice`);
      placed.push(call.id);
      return { kind: 'placed', providerCallId: `p-${call.id}` };
    }
    getCall(): Promise<ProviderCallState | null> {
      throw new Error('not used by dispatch or finish');
    }
    endCall(): Promise<EndOfCallReport | null> {
      throw new Error('not used by dispatch or finish');
    }
  }

  const voice = new FakeVoice();

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([
      Call,
      OutboxEvent,
      OrganizationLimit,
      DoNotCallEntry,
      DestinationRulesRow,
      ...LEDGER_ENTITIES,
    ]));
    const { balances, grants, ledger, reservations } = ledgerRepositories();
    const holdings = new HoldingsRepository();
    calls = new CallsRepository(dataSource);
    const outbox = new OutboxService(new OutboxEventsRepository(dataSource), new OutboxWakeup(dataSource));
    const billing = new CallBillingService(
      dataSource,
      holdings,
      new ReserveMinutesCommand(balances, reservations, holdings),
      new SettleCallCommand(dataSource, balances, grants, ledger, reservations, holdings),
    );
    const jobs = {
      add: async (name: string, data: unknown) => {
        enqueued.push({ name, data });
      },
    } as unknown as JobQueue;
    const config = { voiceProvider: 'simulator', vapi: {} } as AppConfig;
    const admission = new CallAdmission(
      new CallCountsRepository(dataSource),
      new OrganizationLimitsRepository(dataSource),
      config,
    );
    const dispatchQueue = new CallDispatchQueue(jobs);
    const doNotCallRepository = new DoNotCallRepository(dataSource);
    const doNotCall = new DoNotCallService(
      dataSource,
      doNotCallRepository,
      new AddDoNotCallCommand(doNotCallRepository),
      new CursorCodec('medium-spec'),
    );
    newEvents = () =>
      new CallEventsService(
        dataSource,
        calls,
        outbox,
        billing,
        new CallAdmissionQueueJob(calls, jobs, admission, dispatchQueue),
        {} as ToolCallsService,
        new RecordNumberOutcomeCommand(new NumberHealthRepository(dataSource), outbox),
        new CallEndListeners(),
      );
    events = newEvents();
    dispatcher = () =>
      new CallDispatcherJob(
        dataSource,
        calls,
        outbox,
        billing,
        placementWithoutFallbacks(fakeOf<VoicePlatforms>({ of: () => voice }), new Metrics(jobs)),
        newEvents(),
        new Metrics(jobs),
        admission,
        doNotCall,
        new DestinationPolicyService(new DestinationRulesRepository(dataSource)),
        dispatchQueue,
      );
  });
  beforeEach(() => {
    placed = [];
    enqueued = [];
  });
  afterAll(() => close());

  /** `n` live outbound calls of the organization, waiting to be dispatched. */
  async function waitingCalls(organizationId: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const call = await calls.insert(dataSource.manager, {
        id: uuidv7(),
        organizationId,
        status: 'new',
        direction: 'outbound',
        callFrom: '+15550000001',
        callTo: `+1555000${String(2000 + i)}`,
        platform: 'simulator',
      });
      ids.push(call.id);
    }
    return ids;
  }

  const statuses = async (organizationId: string): Promise<Record<string, number>> => {
    const rows: { status: string; n: number }[] = await dataSource.query(
      `SELECT status, count(*)::int AS n FROM calls WHERE organization_id = $1 GROUP BY status`,
      [organizationId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  };
  const reservationCount = async (organizationId: string): Promise<number> =>
    (
      await dataSource.query(`SELECT count(*)::int AS n FROM call_reservations WHERE organization_id = $1`, [
        organizationId,
      ])
    )[0].n;

  describe('dispatch', () => {
    it('two dispatchers of the same call: one starts it, reserves its minute and places it', async () => {
      const organizationId = await subscribedOrganization(dataSource);
      const [callId] = await waitingCalls(organizationId, 1);
      await Promise.all([dispatcher().dispatch({ callId }), dispatcher().dispatch({ callId })]);
      expect(placed).toEqual([callId]);
      expect(await statuses(organizationId)).toEqual({ processing: 1 });
      expect(await reservationCount(organizationId)).toBe(1);
    });

    it('concurrent dispatchers never take the organization past maxConcurrentCalls', async () => {
      const organizationId = await subscribedOrganization(dataSource);
      await dataSource.query(
        `INSERT INTO organization_limits (organization_id, max_concurrent_calls, inbound_reserve) VALUES ($1, 2, 0)`,
        [organizationId],
      );
      const ids = await waitingCalls(organizationId, 6);
      await Promise.all(ids.map((callId) => dispatcher().dispatch({ callId })));
      expect(await statuses(organizationId)).toEqual({ processing: 2, new: 4 });
      expect(placed).toHaveLength(2);
      expect(await reservationCount(organizationId)).toBe(2);
    });
  });

  describe('finish', () => {
    const REPORT: EndOfCallReport = {
      failed: false,
      endedReason: 'customer-ended-call',
      resultStatus: 'completed',
      durationSeconds: 90,
      recordingUrl: null,
      transcript: [],
    };

    /** A dispatched (processing, reserved, placed) call of a subscribed organization. */
    async function liveCall(): Promise<{ organizationId: string; callId: string }> {
      const organizationId = await subscribedOrganization(dataSource);
      const [callId] = await waitingCalls(organizationId, 1);
      await dispatcher().dispatch({ callId });
      expect(await statuses(organizationId)).toEqual({ processing: 1 });
      return { organizationId, callId };
    }

    /** What the finish left: the call's status, its terminal events, its ledger rows and the balance. */
    async function effects(organizationId: string, callId: string) {
      const [call] = await dataSource.query(`SELECT status FROM calls WHERE id = $1`, [callId]);
      const finishedEvents = await dataSource.query(
        `SELECT type FROM outbox_events WHERE organization_id = $1 AND type IN ('call.ended', 'call.failed')`,
        [organizationId],
      );
      const ledgerRows = await dataSource.query(
        `SELECT amount_mins FROM minute_ledger WHERE organization_id = $1 AND call_id = $2`,
        [organizationId, callId],
      );
      const [balance] = await dataSource.query(
        `SELECT balance_mins, reserved_mins FROM usage_balances WHERE organization_id = $1`,
        [organizationId],
      );
      const wakeUps = enqueued.filter((j) => (j.data as { organizationId?: string }).organizationId === organizationId);
      return { status: call.status, finishedEvents, ledgerRows, balance, wakeUps: wakeUps.length };
    }

    const FINISHED_ONCE = {
      status: 'ended',
      finishedEvents: [{ type: 'call.ended' }],
      ledgerRows: [{ amount_mins: -2 }],
      balance: { balance_mins: 98, reserved_mins: 0 },
      wakeUps: 1,
    };

    it('a finish applied twice, one after the other, counts once', async () => {
      const { organizationId, callId } = await liveCall();
      await events.finish(callId, null, REPORT);
      await events.finish(callId, null, { ...REPORT, failed: true, endedReason: 'supervision-timeout' });
      expect(await effects(organizationId, callId)).toEqual(FINISHED_ONCE);
    });

    it('a finish applied twice at the same moment (two workers) counts once', async () => {
      const { organizationId, callId } = await liveCall();
      const [a, b] = [newEvents(), newEvents()];
      await Promise.all([a.finish(callId, null, REPORT), b.finish(callId, null, REPORT)]);
      expect(await effects(organizationId, callId)).toEqual(FINISHED_ONCE);
    });
  });
});
