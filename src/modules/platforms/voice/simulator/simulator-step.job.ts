import { Injectable } from '@nestjs/common';
import { OnJob } from '../../../../infra/queue/on-job.decorator';
import { JobName } from '../../../../infra/queue/queue-names';
import { CallScript, VoiceIngress } from '../../../calls/voice/voice-ingress';
import { SimulatorScripts } from './simulator-scripts';
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

/**
 * Plays one step of a simulated call: rebuilds the timeline from the call, applies that step's platform event.
 * The call's script comes from the ones this process keeps (SimulatorScripts), else it is read and kept until the
 * call's last step.
 */
@Injectable()
export class SimulatorStepJob {
  constructor(
    private readonly ingress: VoiceIngress,
    private readonly scripts: SimulatorScripts,
  ) {}

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
    if (job.step >= timeline.length - 1) this.scripts.forget(job.callId);
    const step = timeline[job.step];
    if (step) await this.ingress.apply(step.event);
  }

  private async scriptOf(callId: string): Promise<CallScript | null> {
    const kept = this.scripts.get(callId);
    if (kept) return kept;
    const script = await this.ingress.findScript(callId);
    if (script) this.scripts.keep(script);
    return script;
  }
}
