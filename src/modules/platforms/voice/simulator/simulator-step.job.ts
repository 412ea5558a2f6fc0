import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../../../common/cache/bounded-map';
import { OnJob } from '../../../../infra/queue/on-job.decorator';
import { JobName } from '../../../../infra/queue/queue-names';
import { CallScript, VoiceIngress } from '../../../calls/voice/voice-ingress';
import { Outcome, simulatorTimeline } from './simulator-timeline';

declare module '../../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.PlaySimulatorStep]: SimulatorStepJobData;
  }
}

/**
 * One step of a simulated call: references and timings only (about 250 bytes, whatever the prompt holds). The
 * timeline is pure, so the step's event is rebuilt from the call when it runs; nothing the call stores (a
 * 50,000-character system prompt, the transcript) is copied into the queue store, once per step.
 */
export interface SimulatorStepJobData {
  callId: string;
  providerCallId: string;
  /** Index in the call's timeline. */
  step: number;
  outcome: Outcome;
  placedAt: number;
  ringMs: number;
  callMs: number;
}

/** Scripts of calls being played that a process keeps at most; past it, the one kept longest goes first. */
const KEPT_SCRIPTS = 1000;
/** A script longer than this (prompt and first message, in characters) is read again at each step instead. */
const KEPT_SCRIPT_CHARS = 8192;

/**
 * Plays one step of a simulated call: rebuilds the timeline from the call, applies that step's platform event.
 * A call's script is fixed once it is placed (resolved when the call was created, its tools restricted at
 * dispatch, before placement), so the steps of one call this process plays read it once and keep it until the
 * last one: a call is about seven steps, and reading the call at each was a seventh of all the statements of a
 * campaign's call (`npm run bench campaign`). Kept scripts are bounded in number and length.
 */
@Injectable()
export class SimulatorStepJob {
  private readonly scripts = new BoundedMap<string, CallScript>(KEPT_SCRIPTS);

  constructor(private readonly ingress: VoiceIngress) {}

  @OnJob({ name: JobName.PlaySimulatorStep })
  async play(job: SimulatorStepJobData): Promise<void> {
    const call = await this.scriptOf(job.callId);
    // A call deleted meanwhile (its organization was removed) has nothing left to play.
    if (!call) return;
    const timeline = simulatorTimeline({
      callId: job.callId,
      providerCallId: job.providerCallId,
      callTo: call.callTo,
      systemPrompt: call.systemPrompt ?? '',
      firstMessage: call.firstMessage ?? '',
      placedAt: job.placedAt,
      ringMs: job.ringMs,
      callMs: job.callMs,
      outcome: job.outcome,
      voicemail: call.voicemail,
      analysisPlan: call.analysisPlan,
      tools: call.tools,
    });
    if (job.step >= timeline.length - 1) this.scripts.delete(job.callId);
    const step = timeline[job.step];
    if (step) await this.ingress.apply(step.event);
  }

  private async scriptOf(callId: string): Promise<CallScript | null> {
    const kept = this.scripts.get(callId);
    if (kept) return kept;
    const script = await this.ingress.findScript(callId);
    if (script && (script.systemPrompt?.length ?? 0) + (script.firstMessage?.length ?? 0) <= KEPT_SCRIPT_CHARS) {
      // A call ended early never plays its last step: the oldest kept script makes room.
      this.scripts.set(callId, script);
    }
    return script;
  }
}
