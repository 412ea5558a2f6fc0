import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { inTransaction, Tx } from '../../infra/database/tx';
import { APP_CONFIG, AppConfig } from '../../infra/config/app-config';
import { DoNotCallService } from '../do-not-call/do-not-call.service';
import { DestinationPolicyService } from '../destinations/destination-policy.service';
import { OutboxService } from '../outbox/outbox.service';
import type { PhoneNumber } from '../phone-numbers/phone-number.entity';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import type { CallTool } from '../tools/call-tools';
import { CallBilling } from '../usage/call-billing.port';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';
import { Call } from './call.entity';
import { CallReferences, LoadedCallReferences } from './call-references';
import { CallsRepository, NewCall } from './calls.repository';
import { MissingRequiredVariableError, RenderedTooLongError, resolveCall } from './call-resolution';
import { CallDispatchQueue } from './dispatch/call-dispatch-queue';
import { CreateCallDto } from './dto/create-call.dto';

/** The campaign a dialer's calls belong to: they take its mode and voicemail policy. */
export type DialerCampaign = { id: string; livemode: boolean; voicemail?: VoicemailPolicy | null };

/** The calls of one dialer step, made by `CreateCallCommand.dialerCallsIn`. */
export interface DialerCalls {
  /**
   * Resolves a call and keeps it for `insert`; its id. Rejects with an ApiError, before any write, when the call
   * cannot be made (a deleted contact or case, a required variable without a value).
   */
  add(dto: CreateCallDto): Promise<string>;
  /** Inserts every call added, in one statement. */
  insert(): Promise<void>;
}

const BLOCKED_MESSAGE = {
  OUTBOUND_MINUTES_EXHAUSTED: 'No billable outbound minute is available',
  OUTBOUND_PLAN_REQUIRED: 'An outbound plan is required to place calls',
} as const;

/**
 * Creates an outbound call with everything resolved (docs/contracts/conventions.md, "What a call injects" and "Creating a call"): its references loaded (and locked
 * against deletes) in the inserting transaction, its script rendered and bounded, its row inserted as `new` or
 * `scheduled`. Two ways in:
 * - `execute`: the API's call, in a transaction of its own when it names a reference (none needed otherwise),
 *   after the checks the API answers with an error (a future scheduledAt, an owned number, a plan and a minute
 *   for a live call, the destination rules, the do-not-call ledger); its dispatch is enqueued after the commit
 *   (if that enqueue is lost, the sweeper finds the due call in PostgreSQL).
 * - `dialerCallsIn`: a dialer's calls (campaigns, schedules, follow-ups; extension) inside the dialer's
 *   transaction (a required `Tx`), carrying their campaign and its mode; admission, the destination rules, the do-not-call ledger
 *   and the minutes are checked at dispatch as for any call, and the caller enqueues the dispatch after its
 *   commit (or leaves it to the sweeper).
 * A test-mode call (`livemode` false) is free: it needs no plan and no minute, and runs on the simulator.
 */
@Injectable()
export class CreateCallCommand {
  constructor(
    private readonly dataSource: DataSource,
    private readonly calls: CallsRepository,
    private readonly numbers: PhoneNumbersService,
    private readonly references: CallReferences,
    private readonly billing: CallBilling,
    private readonly outbox: OutboxService,
    private readonly dispatchQueue: CallDispatchQueue,
    private readonly doNotCall: DoNotCallService,
    private readonly destinations: DestinationPolicyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A call of the key's world: a test world's call is free and runs on the simulator. */
  async execute(world: World, dto: CreateCallDto): Promise<Call> {
    const { organizationId } = world;
    const scheduledAt = dto.scheduledAt ? new Date(dto.scheduledAt) : null;
    if (scheduledAt && scheduledAt.getTime() <= Date.now()) {
      throw ApiError.validation('scheduledAt', 'scheduledAt must be in the future');
    }
    const number = await this.numbers.findOwned(organizationId, dto.from);
    if (!number) {
      throw new ApiError('INVALID_PHONE', `from: ${dto.from} is not a phone number of this organization`);
    }
    // A call naming a case or an assistant is created in a transaction: they stay locked FOR SHARE until its
    // insert commits (CallReferences), its contact read on the same connection. A call naming none holds nothing:
    // its checks are plain reads and its write is one statement (the row, with a scheduled call's event), atomic
    // alone, so it goes without BEGIN and COMMIT, two round trips of nine (BENCHMARKS.md, POST /calls).
    const named = dto.contactId || dto.caseId || dto.caseVersion != null || dto.assistantConfigId;
    const call = named
      ? await inTransaction(this.dataSource, async (tx) =>
          this.checkAndInsert(tx, world, dto, number, await this.references.load(tx, world, dto)),
        )
      : await this.checkAndInsert(
          this.dataSource.manager,
          world,
          dto,
          number,
          await this.references.defaults(organizationId),
        );
    await this.dispatchQueue.enqueue(call.id, scheduledAt);
    return call;
  }

  /**
   * A dialer's calls, inserted as `new` in the dialer's transaction; a campaign's calls take its mode. Each is
   * resolved on its own as it is added, what they share is read once, and all are inserted in one statement.
   */
  dialerCallsIn(tx: Tx, organizationId: string, campaign: DialerCampaign): DialerCalls {
    const shared = new Map<string, Promise<Omit<LoadedCallReferences, 'contact'>>>();
    const numbers = new Map<string, Promise<PhoneNumber | null>>();
    const drafts: NewCall[] = [];
    const world = { organizationId, livemode: campaign.livemode };
    return {
      add: async (dto) => {
        const refs = await this.references.loadSharing(tx, world, dto, shared);
        let number = numbers.get(dto.from);
        if (!number) {
          number = this.numbers.findOwnedIn(tx, organizationId, dto.from);
          numbers.set(dto.from, number);
        }
        const draft = this.newCall(organizationId, dto, refs, campaign, await number);
        drafts.push(draft);
        return draft.id;
      },
      insert: async () => {
        await this.calls.insertMany(tx, drafts);
      },
    };
  }

  /**
   * The API's checks and the insert, on `m`: the creating transaction, or the pool for a call naming no reference.
   * In a transaction every statement runs on its connection: a request holding one connection while waiting for a
   * second deadlocks the pool once as many requests as connections arrive together (seen at 30 concurrent creates).
   */
  private async checkAndInsert(
    m: EntityManager,
    world: World,
    dto: CreateCallDto,
    number: PhoneNumber,
    refs: LoadedCallReferences,
  ): Promise<Call> {
    const { organizationId, livemode } = world;
    if (livemode) assertTransfersCarried(number, refs.case?.tools ?? []);
    const blocked = livemode ? await this.billing.outboundBlockedReasonIn(m, organizationId) : null;
    if (blocked) throw new ApiError(blocked, BLOCKED_MESSAGE[blocked]);
    await this.destinations.assertAllowed(m, organizationId, [{ number: dto.to, field: 'to' }]);
    if ((await this.doNotCall.listedAmong(m, world, [dto.to])).size) {
      throw new ApiError('DO_NOT_CALL', `${dto.to} is on the do-not-call list`);
    }
    const values = this.newCall(organizationId, dto, refs, { id: null, livemode }, number);
    if (!values.scheduledAt) return this.calls.insert(m, values);
    // The call and its event in one statement (in a transaction, its last before the commit).
    const [row] = await this.outbox.recordWithChange<Record<string, unknown>>(
      this.calls.insertStatement(m, values),
      [{ owner: world, type: 'call.scheduled', payload: { callId: values.id } }],
      m,
    );
    return this.calls.entityOf(m, row);
  }

  /**
   * The row of a new call. The platform is chosen here, once (docs/providers.md, "The platform per number"): a
   * test-world call plays on the simulator; a live one on its number's platform (`number` null, a number gone
   * since: the default platform, whose placement then refuses it). What placement needs of the number and the
   * assistant is copied with it.
   */
  private newCall(
    organizationId: string,
    dto: CreateCallDto,
    refs: LoadedCallReferences,
    campaign: { id: string | null; livemode: boolean; voicemail?: VoicemailPolicy | null },
    number: PhoneNumber | null,
  ): NewCall {
    const scheduledAt = dto.scheduledAt ? new Date(dto.scheduledAt) : null;
    const { voiceSettings, caseVersion, ...references } = refs;
    const resolved = this.resolve({ request: dto, ...references, campaignVoicemail: campaign.voicemail });
    const platform = campaign.livemode ? (number?.platform ?? this.config.voiceProvider) : 'simulator';
    return {
      id: uuidv7(),
      organizationId,
      status: scheduledAt ? 'scheduled' : 'new',
      direction: 'outbound',
      callFrom: dto.from,
      callTo: dto.to,
      contactId: dto.contactId ?? null,
      caseId: dto.caseId ?? null,
      caseVersion,
      assistantConfigId: dto.assistantConfigId ?? null,
      campaignId: campaign.id,
      scheduledAt,
      livemode: campaign.livemode,
      platform,
      providerNumberId: number?.providerId ?? null,
      voiceSettings,
      ...resolved,
    };
  }

  private resolve(input: Parameters<typeof resolveCall>[0]) {
    try {
      return resolveCall(input);
    } catch (error) {
      if (error instanceof MissingRequiredVariableError) {
        throw ApiError.validation(`variableValues.${error.variable}`, error.message);
      }
      if (error instanceof RenderedTooLongError) throw ApiError.validation(error.field, error.message);
      throw error;
    }
  }
}

/**
 * Vapi makes warm transfers only on calls Twilio carries (it dials and controls the leg to the person taking the
 * call through Twilio): a live call from a Vapi number another carrier serves (`vapi`, `telnyx`, `vonage`, a SIP
 * trunk) whose case offers a warm transfer would fail at the moment of the transfer, so it is refused up front
 * with 422 naming `caseId` (docs/tools.md, "Transfers"). A number whose carrier was never recorded (given with
 * its `providerId` instead of imported) is not judged.
 */
function assertTransfersCarried(number: Pick<PhoneNumber, 'platform' | 'telephony' | 'number'>, tools: CallTool[]) {
  if (number.platform !== 'vapi' || !number.telephony || WARM_TRANSFER_TELEPHONY.has(number.telephony)) return;
  const warm = tools.find((t) => t.type === 'transfer' && (t.destinations ?? []).some((d) => d.mode === 'warm'));
  if (!warm) return;
  throw ApiError.unprocessable([
    {
      field: 'caseId',
      message:
        `the case's tool ${warm.name ?? warm.id} makes warm transfers, which the voice platform supports only on ` +
        `Twilio numbers; ${number.number} is carried by ${number.telephony} (use cold transfers, or another number)`,
    },
  ]);
}

/** The carriers on which Vapi makes warm transfers. */
const WARM_TRANSFER_TELEPHONY = new Set(['twilio']);
