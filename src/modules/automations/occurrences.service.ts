import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ThreadBudgetExceeded, askWithinBudget } from '../../common/concurrency/thread-budget';
import type { OccurrenceAnswer, OccurrenceQuestion } from './occurrence-worker';

/**
 * How long checking a new rule may compute (the thread's CPU time, src/common/concurrency/thread-budget.ts) before
 * the answer is "no occurrence within 366 days" (docs/operations.md, "Recurring schedules"). A rule with occurrences
 * to come is answered in well under a millisecond; only a rule that (nearly) never matches makes rrule walk years
 * of periods.
 */
export const RULE_CHECK_BUDGET_MS = 50;
/**
 * The budget of an accepted rule's next occurrence (the scheduler, resume): more generous, so a busy machine does
 * not stop a schedule, and costless to the event loop all the same, which only waits for the thread's answer.
 */
export const SCHEDULING_BUDGET_MS = 1000;

/**
 * Computes a recurrence rule's occurrences on a thread of its own, one question at a time, each with
 * a budget to answer: a pathological rule then costs the event loop nothing (it only waits for a
 * message), and when the budget runs out the thread is terminated and a fresh one answers the next question.
 *
 * The thread starts on the first question, not with the application: a running thread costs its process ~30 MB
 * resident (an isolate with rrule and luxon loaded), and most processes never compute an occurrence. The first
 * question then waits for the thread's boot (0.1-0.2 s, more on a busy machine), which its budget does not count:
 * the budget starts once the thread has said it is ready (`thread()` resolves on that message, before
 * `askWithinBudget` reads the clocks).
 */
@Injectable()
export class OccurrencesService implements OnModuleDestroy {
  private readonly logger = new Logger(OccurrencesService.name);
  private worker?: Promise<Worker>;
  /** Questions are answered in turn: the thread computes one at a time and a timeout must stop only its own. */
  private turn: Promise<unknown> = Promise.resolve();

  async onModuleDestroy(): Promise<void> {
    const worker = await this.worker?.catch(() => undefined);
    this.worker = undefined;
    await worker?.terminate();
  }

  /**
   * The first occurrence of `rule` strictly after `after` (series anchored at `dtstart`, wall-clock times in
   * `zone`); null when there is none. Throws ThreadBudgetExceeded past `budgetMs` of the thread's computation (and
   * stops the thread), and the parse error of a bad rule.
   */
  next(rule: string, zone: string, dtstart: Date, after: Date, budgetMs = SCHEDULING_BUDGET_MS): Promise<Date | null> {
    const question: OccurrenceQuestion = { rule, zone, dtstart: dtstart.getTime(), after: after.getTime() };
    const answer = this.turn.then(() => this.ask(question, budgetMs));
    this.turn = answer.catch(() => undefined);
    return answer;
  }

  private async ask(question: OccurrenceQuestion, budgetMs: number): Promise<Date | null> {
    const worker = await this.thread();
    const answer = await askWithinBudget<OccurrenceAnswer>(worker, question, budgetMs).catch((error: unknown) => {
      if (error instanceof ThreadBudgetExceeded) {
        this.worker = undefined;
        void worker.terminate();
      }
      throw error;
    });
    if ('error' in answer) throw new Error(answer.error);
    return answer.next === null ? null : new Date(answer.next);
  }

  /** The running thread, started on first use (and again after a timeout terminated it). */
  private thread(): Promise<Worker> {
    if (this.worker) return this.worker;
    this.worker = new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(...workerEntry());
      // Never what keeps a process alive; shutdown terminates it anyway.
      worker.unref();
      worker.once('message', () => resolve(worker)); // 'ready': its modules are loaded
      // A thread that fails or exits is replaced on the next question; a question it was computing times out.
      worker.on('error', (error) => {
        this.logger.error({ err: error.message }, 'Occurrence thread failed');
        reject(error);
      });
      worker.once('exit', () => {
        if (this.worker === started) this.worker = undefined;
      });
    });
    const started = this.worker;
    return started;
  }
}

/**
 * The thread's script: the compiled file next to this one, or, when the application runs from its TypeScript
 * sources (the test suite), the source through ts-node's transpiler.
 */
function workerEntry(): [string, { execArgv?: string[] }] {
  const compiled = join(__dirname, 'occurrence-worker.js');
  if (existsSync(compiled)) return [compiled, {}];
  return [join(__dirname, 'occurrence-worker.ts'), { execArgv: ['--require', 'ts-node/register/transpile-only'] }];
}
