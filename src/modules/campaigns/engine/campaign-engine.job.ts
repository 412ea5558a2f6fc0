import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { KeyedRerun } from '../../../common/concurrency/keyed-rerun';
import { firstInLine } from '../../../infra/database/first-in-line';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import { JobQueue } from '../../../infra/queue/job-queue';
import { OnJob } from '../../../infra/queue/on-job.decorator';
import { JobName } from '../../../infra/queue/queue-names';
import { CallEndListeners } from '../../calls/call-end-listeners';
import { DueCallsDispatch } from '../../calls/dispatch/due-calls-dispatch';
import { DomainEvent, DomainEventHandler } from '../../outbox/domain-event-handler';
import { DomainEventFanoutService } from '../../outbox/domain-event-fanout.service';
import { CampaignsRepository } from '../campaigns.repository';
import { FollowUpRunner } from '../dialers/follow-up-runner';
import { AdvanceCampaignCommand } from './advance-campaign.command';
import type { NoJobData } from '../../../infra/queue/job-data';

declare module '../../../infra/queue/job-data' {
  interface JobDataMap {
    [JobName.CampaignTick]: NoJobData;
    [JobName.AdvanceCampaign]: { campaignId: string };
  }
}

type FinishedCallEvent = 'call.ended' | 'call.failed';

export const CAMPAIGN_TICK_MS = 1000;
/** Campaigns stepped per tick (the least recently updated first). */
const TICK_BATCH = 200;
/** How long a requested step waits for another engine's step of the same campaign to commit. */
const BUSY_RETRIES = 20;
const BUSY_WAIT_MS = 100;

/**
 * Drives campaigns. PostgreSQL holds every bit of progress; the queue only says "step this campaign now":
 * a cluster-wide tick (a BullMQ job scheduler, registered by the scheduler role) steps every campaign with
 * work due, and a campaign call's end asks for a step at once, so a freed slot is refilled without waiting for
 * the tick. Losing the queue store loses nothing but latency.
 *
 * A worker steps a campaign whose call it ended itself, right after the end commits (CallEndListeners), and
 * again when the call's event reaches it (call.ended / call.failed, which also covers calls ended elsewhere): the
 * way from the end through the outbox, its relay and the event's job was most of the time a slot stood empty
 * between two calls (`npm run bench campaign`). A process runs one step of a campaign at a time and the asks made
 * during it share the next (KeyedRerun), so a burst of ends costs a step per round, not one each.
 */
@Injectable()
export class CampaignEngineJob
  implements OnModuleInit, BeforeApplicationShutdown, DomainEventHandler<FinishedCallEvent>
{
  readonly types = ['call.ended', 'call.failed'] as const;

  private readonly logger = new Logger(CampaignEngineJob.name);
  private readonly steps = new KeyedRerun(async (campaignId) => {
    await this.step(campaignId, true);
  });
  private stopped = false;

  constructor(
    private readonly advance: AdvanceCampaignCommand,
    private readonly campaigns: CampaignsRepository,
    private readonly jobs: JobQueue,
    private readonly dueCalls: DueCallsDispatch,
    private readonly fanout: DomainEventFanoutService,
    private readonly followUps: FollowUpRunner,
    private readonly callEnds: CallEndListeners,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.fanout.on(this);
    this.callEnds.on((call) => {
      if (call.campaignId) this.stepSoon(call.campaignId);
    });
  }

  /** Steps asked for here have run before the database pool closes; asks from now on go to the queue. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.steps.idle();
  }

  async handle({ world, payload }: DomainEvent<FinishedCallEvent>): Promise<void> {
    if (payload.campaignId) this.stepSoon(payload.campaignId);
    await this.followUps.onCallFinished(world, payload);
  }

  /**
   * A step of the campaign, in this process beside the caller when it runs jobs (a worker), else by the queue. A
   * step lost with the process is the tick's to take.
   */
  private stepSoon(campaignId: string): void {
    const step =
      this.config.roles.has('worker') && !this.stopped ? this.steps.ask(campaignId) : this.requestStep(campaignId);
    step.catch((error: unknown) =>
      this.logger.warn({ campaignId, err: (error as Error).message }, 'Campaign step failed; the tick will retry'),
    );
  }

  /** Coalesced: while a step of the campaign is waiting, another request adds nothing. */
  async requestStep(campaignId: string): Promise<void> {
    await this.jobs.add(
      JobName.AdvanceCampaign,
      { campaignId },
      { jobId: `advance-${campaignId}`, removeOnComplete: true, removeOnFail: true },
    );
  }

  @OnJob({ name: JobName.CampaignTick, schedule: { every: CAMPAIGN_TICK_MS } })
  async tick(): Promise<number> {
    let placed = 0;
    for (const id of await this.campaigns.active(TICK_BATCH)) placed += await this.step(id, false);
    return placed;
  }

  @OnJob({ name: JobName.AdvanceCampaign })
  async advanceOne({ campaignId }: { campaignId: string }): Promise<void> {
    await this.steps.ask(campaignId);
  }

  private async step(campaignId: string, waitIfBusy: boolean): Promise<number> {
    for (let i = 0; i <= BUSY_RETRIES; i++) {
      // A campaign's one serial stage (every other stage of its calls runs many at a time): its connection goes to
      // the head of the pool's line instead of queueing behind the statements of the calls it paces.
      const result = await firstInLine(() => this.advance.execute(campaignId));
      if (!result.busy) {
        await this.dueCalls.dispatch(result.callIds);
        return result.callIds.length;
      }
      // Another engine is stepping it: the tick's own next round will come; a requested step waits its turn.
      if (!waitIfBusy) return 0;
      await new Promise((r) => setTimeout(r, BUSY_WAIT_MS));
    }
    this.logger.debug({ campaignId }, 'Campaign step left to the next tick');
    return 0;
  }
}
