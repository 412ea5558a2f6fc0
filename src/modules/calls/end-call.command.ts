import { Injectable, Logger } from '@nestjs/common';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { Call } from './call.entity';
import { CallEventsService } from './call-events.service';
import { CallsRepository } from './calls.repository';
import { VoicePlatforms } from './voice/voice-platforms';
import { CallReportRecoveryJob } from './supervision/call-report-recovery.job';

/**
 * Ends a live call through its voice platform (`POST /api/v1/calls/{id}/end`, docs/tools.md). Only a call the
 * platform holds (`processing`, placed) can be ended; the end itself is recorded like any other, once, by
 * whichever report arrives first (the simulator's at once, Vapi's and Retell's through their messages, or the
 * platform's answer when asked after its report grace).
 */
@Injectable()
export class EndCallCommand {
  private readonly logger = new Logger(EndCallCommand.name);

  constructor(
    private readonly calls: CallsRepository,
    private readonly platforms: VoicePlatforms,
    private readonly callEvents: CallEventsService,
    private readonly reports: CallReportRecoveryJob,
  ) {}

  async execute(world: World, id: string): Promise<Call> {
    const call = await this.calls.findOwned(world, id);
    if (!call) throw ApiError.notFound('Call');
    if (call.status !== 'processing' || !call.apiCallId) {
      const state =
        call.status === 'processing' || call.status === 'lock-processing' ? 'being dispatched' : call.status;
      throw new ApiError('INVALID_STATE', `Only a live call can be ended; this call is ${state}`);
    }
    const platform = this.platforms.of(call);
    let report;
    try {
      report = await platform.endCall(call);
    } catch (error) {
      this.logger.warn({ callId: id, err: (error as Error).message }, 'The voice platform could not end the call');
      throw new ApiError('SERVICE_UNAVAILABLE', 'The voice platform could not end the call now; try again');
    }
    if (report) await this.callEvents.finish(call.id, call.apiCallId, report);
    // The platform reports the end through its own messages: if that report is lost, the platform is asked.
    else await this.reports.expectReport(call.id, platform.reportGraceMs);
    return (await this.calls.findOwned(world, id)) ?? call;
  }
}
