import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { uuidv7 } from '../../../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { JobQueue } from '../../../../infra/queue/job-queue';
import { JOB_QUEUE, JobName } from '../../../../infra/queue/queue-names';
import { KEPT_COMPLETED_JOBS } from '../../../../infra/queue/queue.module';
import type { Call } from '../../../calls/call.entity';
import {
  EndOfCallReport,
  PlaceCallResult,
  ProviderCallState,
  VoiceProvider,
} from '../../../calls/voice/voice-provider';
import { Outcome, endedEarlyReport, simulatedOutcome, simulatorTimeline } from './simulator-timeline';
import { SimulatorStepJobData } from './simulator-step.job';

/**
 * Delayed platform events are retried like any webhook a real platform would resend. A played step is kept a
 * minute (for the queue dashboard), and never beyond the queue's window of completed jobs: nothing reads it again
 * (getCall looks only for pending steps, and each placement has a new provider call id, so no later add needs its
 * id to be recognised). Kept by age alone, a campaign's played steps were most of its Redis bytes while it ran
 * (6.1 of 8.8 KB per entry, `npm run bench campaign`: a minute of steps at 100 dials/s).
 */
export const VOICE_EVENT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 200 },
  removeOnComplete: { age: 60, count: KEPT_COMPLETED_JOBS },
} as const;

/**
 * A call's end is what frees its slots (its organization's concurrency, its campaign's cap): when more steps are
 * due than the voice-events workers take at once, the ends are taken first. A job with a priority waits behind
 * every job without one, so the other steps carry one and the end-of-call steps none. A step overtaken by its
 * call's end changes nothing, as with a real platform's late message: statuses and transcripts are written to
 * live calls only, statuses only forward.
 */
const BEHIND_ENDS = { priority: 1 } as const;

/** More than the longest timeline has steps; getCall looks for any of them still pending. */
const MAX_STEPS = 12;
const PENDING_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized']);

/**
 * The built-in voice platform (docs/contracts/simulator.md): every test-mode call, and live calls from numbers on it. Placing a call schedules its whole
 * timeline as delayed jobs, one per platform event; any worker process plays them, and they outlive a restart.
 * The jobs carry ids and timings only; each step's event is rebuilt from the call when it runs (SimulatorStepJob).
 */
@Injectable()
export class VoiceSimulatorProvider extends VoiceProvider {
  /** The simulator ends a call on the spot (endCall returns its report): there is nothing to wait for. */
  readonly reportGraceMs = 0;

  constructor(
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async placeCall(call: Call): Promise<PlaceCallResult> {
    const providerCallId = VoiceSimulatorProvider.newCallId();
    await this.schedule(call, providerCallId);
    return { kind: 'placed', providerCallId };
  }

  /** Plays an inbound call already recorded with its simulator id (`apiCallId`); always answered (docs/contracts/simulator.md). */
  async answerInbound(call: Call & { apiCallId: string }): Promise<void> {
    await this.schedule(call, call.apiCallId, 'answered');
  }

  static newCallId(): string {
    return `sim-${uuidv7()}`;
  }

  /**
   * The simulator's own state: while a step of the call's timeline is still pending the call is live;
   * otherwise it cannot say (its timeline is gone, e.g. the queue store was lost).
   */
  async getCall(call: Call): Promise<ProviderCallState | null> {
    if (!call.apiCallId) return null;
    const pending = await this.pendingSteps(call.apiCallId);
    return pending.length ? { status: call.apiCallStatus ?? 'queued', report: null } : null;
  }

  /**
   * Ends the call on the spot: its remaining steps are withdrawn (a step already running may still apply its
   * event; the call finishes once whichever end comes first) and the report of a call ended now is returned.
   */
  async endCall(call: Call): Promise<EndOfCallReport | null> {
    if (!call.apiCallId) return null;
    const pending = await this.pendingSteps(call.apiCallId);
    const timing = pending[0]?.data ?? null;
    await Promise.all(pending.map((job) => job.remove().catch(() => undefined)));
    return endedEarlyReport({ ...call, providerCallId: call.apiCallId }, timing, Date.now());
  }

  /** The call's timeline steps not yet played, in order. */
  private async pendingSteps(providerCallId: string): Promise<Array<Job<SimulatorStepJobData>>> {
    const queue = this.jobs.queue(JOB_QUEUE[JobName.PlaySimulatorStep]);
    const pending: Array<Job<SimulatorStepJobData>> = [];
    for (let i = 0; i < MAX_STEPS; i++) {
      const job = (await queue.getJob(`${providerCallId}-${i}`)) as Job<SimulatorStepJobData> | undefined;
      if (job && PENDING_STATES.has(await job.getState())) pending.push(job);
    }
    return pending;
  }

  private async schedule(call: Call, providerCallId: string, outcome?: Outcome): Promise<void> {
    const timing = {
      callId: call.id,
      providerCallId,
      // Decided now, so the steps agree on the outcome whatever happens to the call meanwhile.
      outcome: outcome ?? simulatedOutcome(call.callTo),
      placedAt: Date.now(),
      ringMs: this.config.simulatorRingMs,
      callMs: this.config.simulatorCallMs,
    };
    // Built here only for each step's time; the prompt and messages are left out of the jobs.
    const steps = simulatorTimeline({
      ...timing,
      callTo: call.callTo,
      systemPrompt: '',
      firstMessage: '',
      voicemail: call.voicemail,
      tools: call.tools,
    });
    await this.jobs.addBulk(
      JobName.PlaySimulatorStep,
      steps.map((step, i) => ({
        data: { ...timing, step: i },
        opts: {
          ...VOICE_EVENT_JOB_OPTIONS,
          jobId: `${providerCallId}-${i}`,
          delay: step.at,
          ...(step.event.kind === 'end-of-call' ? {} : BEHIND_ENDS),
        },
      })),
    );
  }
}
