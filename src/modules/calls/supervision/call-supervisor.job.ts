import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallEventsService } from '../call-events.service';
import { CallsRepository } from '../calls.repository';
import { EndOfCallReport } from '../voice/voice-provider';
import { VoicePlatforms } from '../voice/voice-platforms';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.SuperviseCalls]: NoJobData;
  }
}

export const SUPERVISE_EVERY_MS = 5000;
const BATCH = 200;

/** How a call ends when the platform, asked after the deadline, cannot say how it went. */
export const SUPERVISION_TIMEOUT_REPORT: EndOfCallReport = Object.freeze({
  failed: true,
  endedReason: 'supervision-timeout',
  resultStatus: null,
  durationSeconds: null,
  recordingUrl: null,
  transcript: [],
});

/**
 * Nothing stays `processing` forever: a call with no terminal event by its maximum duration plus a grace
 * period is reconciled with the platform (GET the call). An ended call is finished with the platform's
 * report; a call the platform still reports live gets one more grace period; otherwise it ends in `error`
 * (`supervision-timeout`), its reservation released and call.failed fired, through the same idempotent
 * finish as every platform event.
 */
@Injectable()
export class CallSupervisorJob {
  private readonly logger = new Logger(CallSupervisorJob.name);

  constructor(
    private readonly calls: CallsRepository,
    private readonly platforms: VoicePlatforms,
    private readonly events: CallEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnJob({ name: JobName.SuperviseCalls, schedule: { every: SUPERVISE_EVERY_MS } })
  async supervise(): Promise<{ reconciled: number; timedOut: number }> {
    const { maxDurationMs, graceMs } = this.config.callSupervision;
    const overdue = await this.calls.findOverdue(maxDurationMs + graceMs, BATCH);
    let reconciled = 0;
    let timedOut = 0;
    for (const call of overdue) {
      const state = await this.platforms.of(call).getCall(call);
      if (state?.report) {
        await this.events.finish(call.id, call.apiCallId, state.report, true);
        reconciled++;
        continue;
      }
      const age = Date.now() - (call.dispatchedAt ?? call.createdAt).getTime();
      if (state && age < maxDurationMs + 2 * graceMs) {
        await this.events.apply({
          kind: 'status',
          callId: call.id,
          providerCallId: call.apiCallId ?? '',
          status: state.status,
        });
        continue;
      }
      await this.events.finish(call.id, call.apiCallId, SUPERVISION_TIMEOUT_REPORT);
      timedOut++;
    }
    if (reconciled || timedOut) this.logger.warn({ reconciled, timedOut }, 'Call supervision ended overdue calls');
    return { reconciled, timedOut };
  }
}
