import { Injectable } from '@nestjs/common';
import { OnJob } from '../../../../infra/queue/on-job.decorator';
import { JobName } from '../../../../infra/queue/queue-names';
import { VoiceIngress } from '../../../calls/voice/voice-ingress';
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

/** Plays one step of a simulated call: rebuilds the timeline from the call, applies that step's platform event. */
@Injectable()
export class SimulatorStepJob {
  constructor(private readonly ingress: VoiceIngress) {}

  @OnJob({ name: JobName.PlaySimulatorStep })
  async play(job: SimulatorStepJobData): Promise<void> {
    const call = await this.ingress.findScript(job.callId);
    // A call deleted meanwhile (its organization was removed) has nothing left to play.
    if (!call) return;
    const step = simulatorTimeline({
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
    })[job.step];
    if (step) await this.ingress.apply(step.event);
  }
}
