import { Inject, Injectable } from '@nestjs/common';
import { uuidv7 } from '../../../../common/ids/uuid-v7';
import { APP_CONFIG, AppConfig } from '../../../../infra/config/app-config';
import { JobQueue } from '../../../../infra/queue/job-queue.service';
import { JobName } from '../../../../infra/queue/queue-names';
import type { Call } from '../../call.entity';
import { VoiceProvider } from '../voice-provider';
import { simulatorTimeline } from './simulator-timeline';

/** Delayed platform events are retried like any webhook a real platform would resend. */
export const VOICE_EVENT_JOB_OPTIONS = { attempts: 5, backoff: { type: 'exponential', delay: 200 } } as const;

/**
 * The built-in voice platform (VOICE_PROVIDER=simulator, CONTRACTS §4). Placing a call schedules its whole
 * timeline as delayed jobs, each one platform event; any worker process applies them, and they outlive a restart.
 */
@Injectable()
export class VoiceSimulator extends VoiceProvider {
  constructor(
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async placeCall(call: Call): Promise<{ providerCallId: string }> {
    const providerCallId = `sim-${uuidv7()}`;
    const steps = simulatorTimeline({
      callId: call.id,
      providerCallId,
      callTo: call.callTo,
      systemPrompt: call.systemPrompt ?? '',
      firstMessage: call.firstMessage ?? '',
      placedAt: Date.now(),
      ringMs: this.config.simulatorRingMs,
      callMs: this.config.simulatorCallMs,
    });
    await this.jobs.addBulk(
      JobName.ApplyVoiceEvent,
      steps.map((step, i) => ({
        data: step.event,
        opts: { ...VOICE_EVENT_JOB_OPTIONS, jobId: `${providerCallId}-${i}`, delay: step.at },
      })),
    );
    return { providerCallId };
  }
}
