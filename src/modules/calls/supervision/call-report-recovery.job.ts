import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../../../infra/metrics/metrics';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallEventsService } from '../call-events.service';
import { CallsRepository } from '../calls.repository';
import { VoicePlatforms } from '../voice/voice-platforms';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.RecoverCallReport]: { callId: string };
  }
}

/**
 * A platform that says a call ended owes us its end-of-call report; when the report has not finished the call
 * within the grace, the platform is asked for the call (its ended Call carries the same figures) and the call is
 * finished from that. The check is a delayed job with one id per call: it survives restarts (it lives in the
 * queue store), a repeated `ended` adds nothing, and the finish it ends in is the same idempotent one as the
 * report's, so a report that arrives meanwhile makes it a no-op. A report that arrives after it fills in what the
 * platform's record lacked then (CallEventsService.finish). A platform that cannot say yet leaves the call to
 * supervision (max duration plus grace).
 */
@Injectable()
export class CallReportRecoveryJob {
  private readonly logger = new Logger(CallReportRecoveryJob.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly calls: CallsRepository,
    private readonly platforms: VoicePlatforms,
    private readonly events: CallEventsService,
    private readonly metrics: Metrics,
  ) {}

  /** The platform reported the call ended: check on its report after `graceMs`. */
  async expectReport(callId: string, graceMs: number): Promise<void> {
    await this.jobs.add(
      JobName.RecoverCallReport,
      { callId },
      { jobId: `report-${callId}`, delay: graceMs, removeOnComplete: true, removeOnFail: 100 },
    );
  }

  @OnJob({ name: JobName.RecoverCallReport })
  async recover({ callId }: { callId: string }): Promise<'reported' | 'recovered' | 'unavailable'> {
    const call = await this.calls.findById(callId);
    if (!call || call.status !== 'processing') return 'reported';
    const state = await this.platforms.of(call).getCall(call);
    if (!state?.report) {
      this.metrics.voiceReportsRecovered.inc({ outcome: 'unavailable' });
      this.logger.warn({ callId }, 'No end-of-call report, and the platform cannot say yet; supervision will');
      return 'unavailable';
    }
    await this.events.finish(call.id, call.apiCallId, state.report, true);
    this.metrics.voiceReportsRecovered.inc({ outcome: 'recovered' });
    this.logger.warn({ callId, endedReason: state.report.endedReason }, 'End-of-call report lost; call finished');
    return 'recovered';
  }
}
