import { Injectable } from '@nestjs/common';
import { OnJob } from '../../infra/queue/on-job.decorator';
import { JobName } from '../../infra/queue/queue-names';
import { CallEventsService } from './call-events.service';
import { PlatformEvent } from './voice/voice-provider';

/**
 * The voice-events queue's consumer: applies a platform event to its call through CallEventsService, the path the
 * Vapi webhook and the simulator take inline.
 */
@Injectable()
export class CallEventsJob {
  constructor(private readonly events: CallEventsService) {}

  @OnJob({ name: JobName.ApplyVoiceEvent })
  apply(event: PlatformEvent): Promise<void> {
    return this.events.apply(event);
  }
}
