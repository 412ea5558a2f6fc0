/**
 * Thrown by a job handler that may not run now (a concurrency limit is reached): the job registry moves the job
 * back to the delayed set, under the same job id, to run after `delayMs` unless something promotes it sooner.
 * The job is never dropped and no attempt is spent on it.
 */
export class DeferJob extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(`deferred: ${reason}`);
    this.name = 'DeferJob';
  }
}
