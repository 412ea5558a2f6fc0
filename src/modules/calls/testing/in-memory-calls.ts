import { fakeOf } from '../../../infra/testing/fake-of';
import { Call, CallStatus } from '../call.entity';
import { CALL_MOVES } from '../call-transitions';
import { CallsRepository, DispatchFailure } from '../calls.repository';

let sequence = 0;

/** The statement's one-second allowance for a due time (claimMany's `now() + interval '1 second'`). */
const DUE_ALLOWANCE_MS = 1000;

/**
 * The `calls` table in memory, for unit specs of the calls module's commands and jobs: each status move is the
 * transition table's (CALL_MOVES), conditional on the statuses it moves from, as CallsRepository's statements are
 * (pinned against PostgreSQL by test/calls/calls.repository.medium-spec.ts). A method not given here throws.
 */
export class InMemoryCalls {
  readonly calls = new Map<string, Call>();

  add(fields: Partial<Call> = {}): Call {
    const now = new Date();
    const call = Object.assign(new Call(), {
      id: `call-${++sequence}`,
      organizationId: 'org-1',
      status: 'new',
      direction: 'outbound',
      callFrom: '+14155550100',
      callTo: `+1415555${String(2000 + sequence).slice(-4)}`,
      caseId: null,
      contactId: null,
      assistantConfigId: null,
      campaignId: null,
      tools: [],
      toolCalls: [],
      scheduledAt: null,
      apiCallId: null,
      endedReason: null,
      dispatchedAt: null,
      retryAt: null,
      endedAt: null,
      livemode: true,
      // As CreateCallCommand chooses: a test-world call plays on the simulator; a live one here on Vapi.
      platform: fields.livemode === false ? 'simulator' : 'vapi',
      createdAt: now,
      updatedAt: now,
      ...fields,
    });
    this.calls.set(call.id, call);
    return call;
  }

  get(id: string): Call {
    const call = this.calls.get(id);
    if (!call) throw new Error(`no call ${id}`);
    return call;
  }

  /** Moves the call when its status is one `from` lists; the moved copy, or null. */
  private move(id: string, from: readonly CallStatus[], fields: Partial<Call>): Call | null {
    const call = this.calls.get(id);
    if (!call || !from.includes(call.status)) return null;
    Object.assign(call, fields, { updatedAt: new Date() });
    return Object.assign(new Call(), call);
  }

  private static backToWaiting(call: Call): CallStatus {
    return call.scheduledAt ? 'scheduled' : 'new';
  }

  repository(): CallsRepository {
    const moved = (ids: readonly string[], from: readonly CallStatus[], fields: (c: Call) => Partial<Call>) =>
      ids.flatMap((id) => {
        const call = this.calls.get(id);
        const m = call ? this.move(id, from, fields(call)) : null;
        return m ? [m] : [];
      });
    return fakeOf<CallsRepository>(
      {
        findById: (id: string) => Promise.resolve(this.calls.has(id) ? Object.assign(new Call(), this.get(id)) : null),
        claimMany: (ids) => {
          const due = (c: Call) =>
            (!c.retryAt || c.retryAt.getTime() <= Date.now() + DUE_ALLOWANCE_MS) &&
            (!c.scheduledAt || c.scheduledAt.getTime() <= Date.now() + DUE_ALLOWANCE_MS);
          const dueIds = ids.filter((id) => this.calls.has(id) && due(this.get(id)));
          return Promise.resolve(moved(dueIds, CALL_MOVES.claim.from, () => ({ status: 'lock-processing' })));
        },
        start: (_tx, ids) =>
          Promise.resolve(
            moved(ids, CALL_MOVES.start.from, () => ({
              status: 'processing',
              dispatchedAt: new Date(),
              retryAt: null,
            })),
          ),
        requeue: (_tx, ids) => {
          moved(ids, CALL_MOVES.requeue.from, (c) => ({ status: InMemoryCalls.backToWaiting(c) }));
          return Promise.resolve();
        },
        failDispatch: (_tx, failures: readonly DispatchFailure[]) =>
          Promise.resolve(
            failures.flatMap((f) => {
              const m = this.move(f.id, CALL_MOVES.failDispatch.from, {
                status: 'error',
                endedReason: f.endedReason,
                dispatchedAt: null,
                endedAt: new Date(),
              });
              return m ? [m] : [];
            }),
          ),
        defer: (id, retryAt, _blocked, unavailable) => {
          const call = this.calls.get(id);
          if (!call || call.apiCallId) return Promise.resolve(false);
          const attempts = call.platformAttempts ?? [];
          const at = unavailable?.unconfirmed ? new Date(unavailable.attempt.at) : null;
          const m = this.move(id, CALL_MOVES.defer.from, {
            status: InMemoryCalls.backToWaiting(call),
            dispatchedAt: null,
            retryAt,
            platformAttempts: unavailable ? [...attempts, unavailable.attempt] : attempts,
            unconfirmedPlacementAt: call.unconfirmedPlacementAt ?? at,
          });
          return Promise.resolve(m !== null);
        },
        appendToolCall: (id, record, max) => {
          const call = this.calls.get(id);
          const room = call && call.status === 'processing' && call.toolCalls.length < max;
          if (!room || call.toolCalls.some((r) => r.id === record.id)) return Promise.resolve(false);
          call.toolCalls = [...call.toolCalls, record];
          return Promise.resolve(true);
        },
      },
      'CallsRepository',
    );
  }
}
