/**
 * Thrown by a job handler that may not run now (a concurrency limit is reached): the job registry moves the job
 * back to the delayed set, under the same job id, to run after `delayMs` unless something promotes it sooner.
 * The job is never dropped and no attempt is spent on it. `afterParked` runs once the job is in the delayed set:
 * a wake-up sent while the job was still on its way there found nothing to promote, so the handler looks again
 * (the classic lost wake-up) instead of waiting out the whole delay.
 */
export class DeferJob extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
    readonly afterParked?: () => Promise<void>,
  ) {
    super(`deferred: ${reason}`);
    this.name = 'DeferJob';
  }
}
