import { QueryFailedError } from 'typeorm';
import { fakeOf } from '../../../infra/testing/fake-of';
import type { Tx } from '../../../infra/database/tx';
import type { GrantKind } from '../allocation';
import { CallReservationsRepository, NewReservation } from '../call-reservations.repository';
import { CallReservation } from '../entities/call-reservation.entity';
import { CALL_LEDGER_ROW_UNIQUE, CALL_LEDGER_TYPES } from '../entities/minute-ledger-entry.entity';
import { MinuteGrant } from '../entities/minute-grant.entity';
import { MinuteLedgerEntry } from '../entities/minute-ledger-entry.entity';
import { UsageBalance } from '../entities/usage-balance.entity';
import { Subscription } from '../entities/subscription.entity';
import { Trial } from '../entities/trial.entity';
import { HoldingsRepository } from '../holdings.repository';
import { MinuteGrantsRepository } from '../minute-grants.repository';
import { EntryInput, MinuteLedgerRepository } from '../minute-ledger.repository';
import { LockedBalance, UsageBalancesRepository } from '../usage-balances.repository';

const ORG = 'org-1';
let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${++sequence}`;

/** A ledger row as written, with the organization's balance after it. */
export interface WrittenEntry extends EntryInput {
  balanceAfterMins: number;
}

/**
 * One organization's minute ledger in memory, for unit specs of the ledger's commands (reserve, settle): its
 * subscriptions and trial, grants, balance, reservations and ledger rows, written as the repositories write them,
 * the unique call row of the ledger included (a second row for a call fails as PostgreSQL's index does). Their
 * SQL is pinned against PostgreSQL by test/usage/ledger.repository.medium-spec.ts.
 */
export class InMemoryLedger {
  readonly subscriptions: Subscription[] = [];
  trial: Trial | null = null;
  readonly grants: MinuteGrant[] = [];
  readonly balance = { balanceMins: 0, reservedMins: 0 };
  readonly reservations: CallReservation[] = [];
  readonly entries: WrittenEntry[] = [];
  /** How many times the balance lock was taken (each is a wait for every other writer of the organization). */
  locks = 0;
  /** The database clock read under the lock. */
  now = new Date('2026-03-04T12:00:00.000Z');

  subscribe(fields: Partial<Subscription> = {}): Subscription {
    const s = Object.assign(new Subscription(), {
      id: nextId('subscription'),
      organizationId: ORG,
      productType: 'outreach',
      tier: 1,
      quantity: 1,
      complimentary: false,
      status: 'active',
      enforced: true,
      enforcementStartsAt: null,
      currentPeriodStart: new Date(this.now.getTime() - 86_400_000),
      currentPeriodEnd: new Date(this.now.getTime() + 29 * 86_400_000),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      createdAt: this.now,
      updatedAt: this.now,
      ...fields,
    });
    this.subscriptions.push(s);
    return s;
  }

  /** A running trial of `mins` minutes, and its grant. */
  startTrial(mins: number): MinuteGrant {
    const endsAt = new Date(this.now.getTime() + 7 * 86_400_000);
    this.trial = Object.assign(new Trial(), {
      id: nextId('trial'),
      organizationId: ORG,
      startedAt: this.now,
      endsAt,
      grantedMins: mins,
      status: 'active',
      createdAt: this.now,
    });
    return this.grant(mins, { kind: 'trial', expiresAt: endsAt });
  }

  /** A grant of `mins` minutes; the balance counts them. */
  grant(mins: number, fields: Partial<MinuteGrant> & { kind?: GrantKind } = {}): MinuteGrant {
    const g = Object.assign(new MinuteGrant(), {
      id: nextId('grant'),
      organizationId: ORG,
      kind: 'included',
      subscriptionId: null,
      grantedMins: mins,
      remainingMins: mins,
      reservedMins: 0,
      usedMins: 0,
      periodStart: null,
      expiresAt: null,
      closed: false,
      grantedAt: new Date(this.now.getTime() - 3_600_000),
      ...fields,
    });
    this.grants.push(g);
    this.balance.balanceMins += g.remainingMins;
    this.balance.reservedMins += g.reservedMins;
    return g;
  }

  grantById(id: string): MinuteGrant {
    return this.grants.find((g) => g.id === id)!;
  }

  reservationOf(callId: string): CallReservation | undefined {
    return this.reservations.find((r) => r.callId === callId);
  }

  balancesRepository(): UsageBalancesRepository {
    return fakeOf<UsageBalancesRepository>(
      {
        lock: (_tx, organizationId) => {
          this.locks++;
          return Promise.resolve({
            balance: Object.assign(new UsageBalance(), {
              organizationId,
              ...this.balance,
              lastEntryAt: null,
              updatedAt: this.now,
            }),
            now: this.now,
          });
        },
      },
      'UsageBalancesRepository',
    );
  }

  holdingsRepository(): HoldingsRepository {
    return fakeOf<HoldingsRepository>(
      {
        load: (_m, _org, now) =>
          Promise.resolve({
            entitlements: { subscriptions: [...this.subscriptions], trial: this.trial, now: now.getTime() },
            grants: this.grants
              .filter((g) => !g.closed || g.reservedMins > 0)
              .map((g) => Object.assign(new MinuteGrant(), g)),
            balance: null,
          }),
      },
      'HoldingsRepository',
    );
  }

  reservationsRepository(): CallReservationsRepository {
    const claimMany = (_tx: Tx, organizationId: string, callIds: readonly string[]) => {
      const claimed = this.reservations.filter(
        (r) => callIds.includes(r.callId) && r.organizationId === organizationId && r.status === 'reserved',
      );
      for (const r of claimed) r.status = 'settled';
      return Promise.resolve(claimed.map((r) => ({ ...r })));
    };
    return fakeOf<CallReservationsRepository>(
      {
        reservedCallIds: (_tx, organizationId, callIds) =>
          Promise.resolve(
            new Set(
              this.reservations
                .filter((r) => r.organizationId === organizationId && callIds.includes(r.callId))
                .map((r) => r.callId),
            ),
          ),
        reserve: (_tx, locked: LockedBalance, reservations: readonly NewReservation[]) => {
          let held = 0;
          for (const r of reservations) {
            if (this.reservationOf(r.callId)) throw new Error(`call ${r.callId} reserved twice`);
            for (const a of r.allocations) {
              this.grantById(a.grantId).reservedMins += a.mins;
              held += a.mins;
            }
            this.reservations.push(
              Object.assign(new CallReservation(), {
                id: nextId('reservation'),
                organizationId: locked.balance.organizationId,
                callId: r.callId,
                allocations: r.allocations,
                covered: r.covered,
                status: 'reserved',
                createdAt: locked.now,
              }),
            );
          }
          this.balance.reservedMins += held;
          locked.balance.reservedMins += held;
          return Promise.resolve();
        },
        claimManyForSettlement: claimMany,
      },
      'CallReservationsRepository',
    );
  }

  grantsRepository(): MinuteGrantsRepository {
    return fakeOf<MinuteGrantsRepository>(
      {
        saveStates: (_tx, _grants, states, used = new Map()) => {
          for (const s of states) {
            const g = this.grantById(s.id);
            Object.assign(g, {
              remainingMins: s.remainingMins,
              reservedMins: s.reservedMins,
              closed: s.closed,
              usedMins: g.usedMins + (used.get(s.id) ?? 0),
            });
          }
          return Promise.resolve();
        },
      },
      'MinuteGrantsRepository',
    );
  }

  ledgerRepository(): MinuteLedgerRepository {
    return fakeOf<MinuteLedgerRepository>(
      {
        callsWithEntry: (_tx, calls) =>
          Promise.resolve(
            new Set(
              calls
                .filter((c) => this.entries.some((e) => e.callId === c.callId && e.type === `${c.direction}_call`))
                .map((c) => c.callId),
            ),
          ),
        append: (_tx, locked, input) => {
          const isCallRow = CALL_LEDGER_TYPES.includes(input.type);
          if (isCallRow && this.entries.some((e) => e.callId === input.callId && CALL_LEDGER_TYPES.includes(e.type))) {
            throw new QueryFailedError('(the ledger row of a call, written twice)', [], {
              code: '23505',
              constraint: CALL_LEDGER_ROW_UNIQUE,
            } as unknown as Error);
          }
          const balanceAfterMins = locked.balance.balanceMins + input.amountMins;
          if (balanceAfterMins < 0) throw new Error('ledger invariant: balance would go negative');
          this.entries.push({ ...input, balanceAfterMins });
          locked.balance.balanceMins = balanceAfterMins;
          locked.balance.reservedMins -= input.releasedMins ?? 0;
          Object.assign(this.balance, { balanceMins: balanceAfterMins, reservedMins: locked.balance.reservedMins });
          return Promise.resolve(Object.assign(new MinuteLedgerEntry(), { ...input, balanceAfterMins }));
        },
        // Row by row through `append`, which a spec may replace (to fail one row): the batch fails at that row.
        async appendMany(this: MinuteLedgerRepository, tx, locked, inputs) {
          const entries: MinuteLedgerEntry[] = [];
          for (const input of inputs) entries.push(await this.append(tx, locked, input));
          return entries;
        },
      },
      'MinuteLedgerRepository',
    );
  }
}
