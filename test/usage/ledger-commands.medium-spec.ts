import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallReservation } from '../../src/modules/usage/entities/call-reservation.entity';
import { MinuteGrant } from '../../src/modules/usage/entities/minute-grant.entity';
import { MinuteLedgerEntry } from '../../src/modules/usage/entities/minute-ledger-entry.entity';
import { Subscription } from '../../src/modules/usage/entities/subscription.entity';
import { Trial } from '../../src/modules/usage/entities/trial.entity';
import { UsageBalance } from '../../src/modules/usage/entities/usage-balance.entity';
import { addMonths } from '../../src/modules/usage/allocation';
import { CloseGrantsCommand } from '../../src/modules/usage/close-grants.command';
import { EndTrialCommand } from '../../src/modules/usage/end-trial.command';
import { ExpireTrialCommand } from '../../src/modules/usage/expire-trial.command';
import { HoldingsRepository } from '../../src/modules/usage/holdings.repository';
import { RenewSubscriptionCommand } from '../../src/modules/usage/renew-subscription.command';
import { ReserveMinutesCommand } from '../../src/modules/usage/reserve-minutes.command';
import { SettleCallCommand } from '../../src/modules/usage/settle-call.command';
import { SubscriptionsRepository } from '../../src/modules/usage/subscriptions.repository';
import { TrialsRepository } from '../../src/modules/usage/trials.repository';
import { openTestDataSource } from '../support/test-data-source';
import { LEDGER_ENTITIES, currentPeriod, ledgerRepositories, subscribe } from './ledger-parts';
import { inTransaction } from '../../src/infra/database/tx';

/**
 * The ledger's commands against real PostgreSQL: a call is settled once and a period renewed once, however
 * often (and however concurrently) the settlement or the renewal is repeated; subscriptions and trials leave
 * `active` once.
 */
describe('ledger commands (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const { balances, grants, ledger, reservations, grantMinutes } = ledgerRepositories();
  const holdings = new HoldingsRepository();
  const subscriptions = new SubscriptionsRepository();
  const trials = new TrialsRepository();
  const closeGrants = new CloseGrantsCommand(grants, ledger);
  const reserve = new ReserveMinutesCommand(balances, reservations, holdings);
  const renew = new RenewSubscriptionCommand(balances, subscriptions, closeGrants, grantMinutes);
  const expireTrial = new ExpireTrialCommand(balances, trials, new EndTrialCommand(trials, closeGrants));
  let settle: SettleCallCommand;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource(LEDGER_ENTITIES));
    settle = new SettleCallCommand(dataSource, balances, grants, ledger, reservations, holdings);
  });
  afterAll(() => close());

  const ledgerRows = (organizationId: string) =>
    dataSource.manager.find(MinuteLedgerEntry, { where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  const balanceOf = (organizationId: string) => dataSource.manager.findOneByOrFail(UsageBalance, { organizationId });

  /** An organization with an active Outreach Tier 1 subscription (100 included minutes) for the given period. */
  const subscribed = (period: { start: Date; end: Date }, values: Partial<Subscription> = {}) =>
    subscribe(dataSource, period, values);
  const current = currentPeriod;
  const ended = () => ({ start: addMonths(new Date(), -1), end: new Date(Date.now() - 60_000) });

  describe('SettleCallCommand', () => {
    /** A reserved outbound call of a subscribed organization. */
    async function reservedCall(): Promise<{ organizationId: string; callId: string }> {
      const { organizationId } = await subscribed(current());
      const callId = randomUUID();
      const outcomes = await inTransaction(dataSource, (tx) => reserve.execute(tx, organizationId, [callId]));
      expect(outcomes.get(callId)).toEqual({ reserved: true });
      return { organizationId, callId };
    }
    const outbound = (organizationId: string, callId: string) => ({
      organizationId,
      callId,
      direction: 'outbound' as const,
      durationSeconds: 90,
      providerCallId: 'provider-call',
    });

    it('charges a call’s started minutes once and releases its reservation, however often it is settled', async () => {
      const { organizationId, callId } = await reservedCall();
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 100, reservedMins: 1 });
      await settle.execute(outbound(organizationId, callId));
      await settle.execute(outbound(organizationId, callId));
      const calls = (await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ callId, amountMins: -2, providerCallId: 'provider-call' });
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 98, reservedMins: 0 });
      expect(await dataSource.manager.findOneByOrFail(CallReservation, { callId })).toMatchObject({
        status: 'settled',
      });
    });

    it('settles once when two settlements of a reserved call run at the same time', async () => {
      const { organizationId, callId } = await reservedCall();
      await Promise.all([
        settle.execute(outbound(organizationId, callId)),
        settle.execute(outbound(organizationId, callId)),
      ]);
      expect((await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call')).toHaveLength(1);
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 98, reservedMins: 0 });
    });

    it('settles once when two settlements of an unreserved (inbound) call run at the same time', async () => {
      const { organizationId } = await subscribed(current());
      const inbound = { ...outbound(organizationId, randomUUID()), direction: 'inbound' as const };
      await Promise.all([settle.execute(inbound), settle.execute(inbound), settle.execute(inbound)]);
      const calls = (await ledgerRows(organizationId)).filter((r) => r.type === 'inbound_call');
      expect(calls).toHaveLength(1);
      expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 98, reservedMins: 0 });
    });

    describe('in the caller’s transaction (executeIn: the calls’ end)', () => {
      /** Reserved outbound calls of one subscribed organization. */
      async function reservedCalls(n: number): Promise<{ organizationId: string; callIds: string[] }> {
        const { organizationId } = await subscribed(current());
        const callIds = Array.from({ length: n }, () => randomUUID());
        await inTransaction(dataSource, (tx) => reserve.execute(tx, organizationId, callIds));
        return { organizationId, callIds };
      }
      const dailyTotals = async (organizationId: string) =>
        (
          await dataSource.query(
            `SELECT calls, talk_mins AS "talkMins", deducted_mins AS "deductedMins" FROM usage_daily_totals
              WHERE organization_id = $1`,
            [organizationId],
          )
        )[0];

      it('two calls of one organization: one row each, their balances chained, both in the day’s totals', async () => {
        const { organizationId, callIds } = await reservedCalls(2);
        await inTransaction(dataSource, (tx) =>
          settle.executeIn(tx, [
            outbound(organizationId, callIds[0]),
            { ...outbound(organizationId, callIds[1]), durationSeconds: 150 },
          ]),
        );
        const rows = (await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call');
        expect(rows.map((r) => [r.callId, r.amountMins, r.balanceAfterMins])).toEqual([
          [callIds[0], -2, 98],
          [callIds[1], -3, 95],
        ]);
        expect(rows[1].createdAt.getTime()).toBeGreaterThan(rows[0].createdAt.getTime());
        expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 95, reservedMins: 0 });
        expect(await dailyTotals(organizationId)).toEqual({ calls: 2, talkMins: 4, deductedMins: 5 });
      });

      it('a call named twice in a batch is settled once', async () => {
        const { organizationId, callIds } = await reservedCalls(1);
        const settlement = outbound(organizationId, callIds[0]);
        await inTransaction(dataSource, (tx) => settle.executeIn(tx, [settlement, settlement]));
        expect((await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call')).toHaveLength(1);
        expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 98, reservedMins: 0 });
        expect(await dailyTotals(organizationId)).toEqual({ calls: 1, talkMins: 1.5, deductedMins: 2 });
      });

      it('settled again (a redelivered end), changes nothing', async () => {
        const { organizationId, callIds } = await reservedCalls(2);
        const batch = callIds.map((callId) => outbound(organizationId, callId));
        await inTransaction(dataSource, (tx) => settle.executeIn(tx, batch));
        await inTransaction(dataSource, (tx) => settle.executeIn(tx, batch));
        await settle.execute(batch[0]);
        expect((await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call')).toHaveLength(2);
        expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 96, reservedMins: 0 });
        expect(await dailyTotals(organizationId)).toEqual({ calls: 2, talkMins: 3, deductedMins: 4 });
      });

      it('calls beyond the balance in one batch: each drawn on what the previous one left, none below zero', async () => {
        const { organizationId, callIds } = await reservedCalls(2);
        const hour = (callId: string) => ({ ...outbound(organizationId, callId), durationSeconds: 60 * 60 });
        await inTransaction(dataSource, (tx) => settle.executeIn(tx, callIds.map(hour)));
        const rows = (await ledgerRows(organizationId)).filter((r) => r.type === 'outbound_call');
        expect(rows.map((r) => [r.amountMins, r.balanceAfterMins, r.excessMins])).toEqual([
          [-60, 40, 0],
          [-40, 0, 20],
        ]);
        expect(await balanceOf(organizationId)).toMatchObject({ balanceMins: 0, reservedMins: 0 });
      });
    });
  });

  describe('RenewSubscriptionCommand', () => {
    it('renews a due period once: the old minutes expire, the next period’s are granted', async () => {
      const sub = await subscribed(ended());
      const renewDue = () => inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: true }));
      expect(await renewDue()).toBe(true);
      expect(await renewDue()).toBe(false);
      const after = await dataSource.manager.findOneByOrFail(Subscription, { id: sub.id });
      expect(after.currentPeriodStart).toEqual(sub.currentPeriodEnd);
      expect(after.currentPeriodEnd).toEqual(addMonths(sub.currentPeriodEnd as Date, 1));
      const periodRows = (await ledgerRows(sub.organizationId)).map((r) => [r.type, r.amountMins]);
      expect(periodRows).toEqual([
        ['monthly_renewal', 100],
        ['monthly_renewal', -100],
        ['monthly_renewal', 100],
      ]);
      expect(await balanceOf(sub.organizationId)).toMatchObject({ balanceMins: 100 });
    });

    it('renews once when two renewals of the same due period run at the same time', async () => {
      const sub = await subscribed(ended());
      const outcomes = await Promise.all(
        [1, 2, 3].map(() => inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: true }))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await dataSource.manager.countBy(MinuteGrant, { subscriptionId: sub.id })).toBe(2);
      expect(await balanceOf(sub.organizationId)).toMatchObject({ balanceMins: 100 });
    });

    it('leaves a period that is not yet due alone unless asked to renew now', async () => {
      const sub = await subscribed(current());
      expect(await inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: true }))).toBe(false);
      expect(await dataSource.manager.countBy(MinuteGrant, { subscriptionId: sub.id })).toBe(1);
      expect(await inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: false }))).toBe(true);
      expect(await dataSource.manager.countBy(MinuteGrant, { subscriptionId: sub.id })).toBe(2);
    });

    it('ends a subscription cancelled at period end instead of renewing it, once', async () => {
      const sub = await subscribed(ended(), { cancelAtPeriodEnd: true });
      expect(await inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: true }))).toBe(true);
      expect(await inTransaction(dataSource, (tx) => renew.execute(tx, sub.id, { onlyIfDue: false }))).toBe(false);
      expect(await dataSource.manager.findOneByOrFail(Subscription, { id: sub.id })).toMatchObject({
        status: 'canceled',
      });
      expect(await dataSource.manager.countBy(MinuteGrant, { subscriptionId: sub.id })).toBe(1);
      expect(await balanceOf(sub.organizationId)).toMatchObject({ balanceMins: 0 });
    });
  });

  describe('SubscriptionsRepository', () => {
    it('moves only an active subscription: a cancelled one is neither cancelled again nor renewed', async () => {
      const sub = await subscribed(current());
      const at = new Date();
      expect(await inTransaction(dataSource, (tx) => subscriptions.cancel(tx, sub.id, at))).toBe(true);
      expect(await inTransaction(dataSource, (tx) => subscriptions.cancel(tx, sub.id, new Date()))).toBe(false);
      expect(await inTransaction(dataSource, (tx) => subscriptions.cancelAtPeriodEnd(tx, sub.id))).toBe(false);
      expect(
        await inTransaction(dataSource, (tx) =>
          subscriptions.startPeriod(tx, sub.id, new Date(), addMonths(new Date(), 1)),
        ),
      ).toBe(false);
      expect(await dataSource.manager.findOneByOrFail(Subscription, { id: sub.id })).toMatchObject({
        status: 'canceled',
        canceledAt: at,
        cancelAtPeriodEnd: false,
        currentPeriodEnd: sub.currentPeriodEnd,
      });
    });

    it('finds active subscriptions whose period has ended, not current or cancelled ones', async () => {
      const due = await subscribed(ended());
      const notDue = await subscribed(current());
      const cancelled = await subscribed(ended(), { status: 'canceled' });
      const ids = await subscriptions.findDueIds(dataSource.manager, new Date(), 10_000);
      expect(ids).toContain(due.id);
      expect(ids).not.toContain(notDue.id);
      expect(ids).not.toContain(cancelled.id);
    });
  });

  describe('ExpireTrialCommand', () => {
    it('expires a trial whose window has passed once, closing its minutes', async () => {
      const organizationId = randomUUID();
      const trial = await inTransaction(dataSource, async (tx) => {
        const locked = await balances.lock(tx, organizationId);
        const row = tx.create(Trial, {
          id: randomUUID(),
          organizationId,
          startedAt: new Date(Date.now() - 7 * 86_400_000),
          endsAt: new Date(Date.now() - 60_000),
          grantedMins: 30,
          status: 'active',
        });
        await trials.insert(tx, row);
        const grant = {
          kind: 'trial' as const,
          subscriptionId: null,
          periodStart: row.startedAt,
          expiresAt: row.endsAt,
        };
        await grantMinutes.execute(
          tx,
          locked,
          { ...grant, grantedMins: 30 },
          {
            type: 'trial_activation',
            amountMins: 30,
            description: 'trial',
            productType: 'outreach',
          },
        );
        return row;
      });
      expect(await trials.findDueIds(dataSource.manager, new Date(), 10_000)).toContain(trial.id);
      const outcomes = await Promise.all(
        [1, 2].map(() => inTransaction(dataSource, (tx) => expireTrial.execute(tx, trial.id))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await dataSource.manager.findOneByOrFail(Trial, { id: trial.id })).toMatchObject({ status: 'expired' });
      expect((await ledgerRows(organizationId)).map((r) => [r.type, r.amountMins])).toEqual([
        ['trial_activation', 30],
        ['trial_expiration', -30],
      ]);
      expect(await inTransaction(dataSource, (tx) => trials.end(tx, trial.id, 'converted'))).toBe(false);
    });
  });
});
