import { Injectable } from '@nestjs/common';
import { Tx } from '../../infra/database/tx';
import { ApiError } from '../errors/api-error';

/** A row others may refer to by id; the referring column is named the same in every table. */
export type ReferenceTarget = { caseId: string } | { assistantConfigId: string };
/** A tool, referred to from cases' `toolIds` lists (docs/tools.md). */
export type ToolTarget = { toolId: string };

/** One kind of referrer (queued calls, recurring schedules, ...), registered by the module that owns its table. */
export interface ReferenceCounter<T = ReferenceTarget> {
  /** Where it is named in the 409 message, so the message reads the same whatever order modules start in. */
  readonly order: number;
  readonly one: string;
  readonly many: string;
  count(tx: Tx, organizationId: string, target: T): Promise<number>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What blocks deleting a case, an outbound assistant or a tool, asked of every registered referrer. The owners of the
 * referring tables register here (the shape of the outbox fan-out), so the deleted row's module imports none of
 * them. Callers run it inside the transaction that holds the target row `FOR UPDATE`; anything that adds a
 * reference locks that row `FOR SHARE` first, so the counts cannot go stale between this check and the delete.
 */
@Injectable()
export class ReferenceRegistry {
  private readonly counters: ReferenceCounter[] = [];
  private readonly toolCounters: Array<ReferenceCounter<ToolTarget>> = [];

  register(counter: ReferenceCounter): void {
    this.counters.push(counter);
    this.counters.sort((a, b) => a.order - b.order);
  }

  /** A referrer of tools (cases' tool lists): tools are referred to by other tables than cases and assistants. */
  registerToolReferrer(counter: ReferenceCounter<ToolTarget>): void {
    this.toolCounters.push(counter);
    this.toolCounters.sort((a, b) => a.order - b.order);
  }

  /** 409 CONFLICT naming and counting every kind of referrer, e.g. "Case is in use: 2 queued calls, ...". */
  assertNone(tx: Tx, organizationId: string, target: ReferenceTarget, what: string): Promise<void> {
    return assertUnreferenced(this.counters, tx, organizationId, target, what);
  }

  /** 409 CONFLICT while any referrer holds the tool, e.g. "Tool is in use: 2 cases". */
  assertToolUnused(tx: Tx, organizationId: string, toolId: string): Promise<void> {
    return assertUnreferenced(this.toolCounters, tx, organizationId, { toolId }, 'Tool');
  }
}

async function assertUnreferenced<T>(
  counters: Array<ReferenceCounter<T>>,
  tx: Tx,
  organizationId: string,
  target: T,
  what: string,
): Promise<void> {
  const counts: number[] = [];
  // Sequential on purpose: a transaction's manager holds one connection, which runs one query at a time.
  for (const counter of counters) counts.push(await counter.count(tx, organizationId, target));
  if (counts.every((n) => n === 0)) return;
  const named = counters.map((c, i) => plural(counts[i], c.one, c.many));
  throw ApiError.conflict(`${what} is in use: ${named.join(', ')}`);
}
