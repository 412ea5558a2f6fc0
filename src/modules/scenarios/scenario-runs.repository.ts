import { Injectable } from '@nestjs/common';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { World, worldSql, worldWhere } from '../../common/auth/world';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import { ScenarioRun } from './scenario-run.entity';

/** A run left `queued` or `running` this long without a move is played again (its job was lost, or its worker). */
export const RUN_STALE_SECONDS = { queued: 30, running: 300 } as const;

/** What a run ended with. */
export type RunOutcome = Pick<ScenarioRun, 'status' | 'transcript' | 'expectations' | 'durationMs' | 'usage' | 'error'>;

/** A run as it is stored when started: queued, nothing played yet. */
export function queuedRun(
  fields: Pick<ScenarioRun, 'id' | 'organizationId' | 'livemode' | 'scenarioId' | 'caseId' | 'caseVersion'>,
): Omit<ScenarioRun, 'createdAt' | 'updatedAt'> {
  return { ...fields, status: 'queued', transcript: [], expectations: [], durationMs: null, usage: null, error: null };
}

/**
 * The SQL of `scenario_runs`. A run moves `queued -> running -> passed | failed | error`, each move one
 * conditional statement, so a run replayed after a lost job or worker is played and judged once.
 */
@Injectable()
export class ScenarioRunsRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(world: World, id: string): Promise<ScenarioRun | null> {
    return this.dataSource.manager.findOneBy(ScenarioRun, { id, ...worldWhere(world) });
  }

  /** The world's runs of one scenario, for keyset pagination (alias `r`). */
  ofScenarioQuery(world: World, scenarioId: string): SelectQueryBuilder<ScenarioRun> {
    return this.dataSource.manager
      .createQueryBuilder(ScenarioRun, 'r')
      .where(worldSql('r'), worldWhere(world))
      .andWhere('r.scenarioId = :scenarioId', { scenarioId });
  }

  async insertMany(tx: Tx, runs: Array<Omit<ScenarioRun, 'createdAt' | 'updatedAt'>>): Promise<ScenarioRun[]> {
    if (!runs.length) return [];
    // jsonb columns typed as our own shapes, which TypeORM's deep-partial type cannot follow.
    await tx.insert(ScenarioRun, runs as QueryDeepPartialEntity<ScenarioRun>[]);
    const stored = await tx.findBy(
      ScenarioRun,
      runs.map((r) => ({ id: r.id })),
    );
    const byId = new Map(stored.map((r) => [r.id, r]));
    return runs.map((r) => byId.get(r.id)!);
  }

  /** The organization's runs not ended, and those started in the last minute (both worlds: one budget). */
  async load(tx: Tx, organizationId: string): Promise<{ inFlight: number; lastMinute: number }> {
    const [row] = (await tx.query(
      `SELECT count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS "inFlight",
              count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS "lastMinute"
         FROM scenario_runs
        WHERE organization_id = $1 AND (status IN ('queued', 'running') OR created_at > now() - interval '1 minute')`,
      [organizationId],
    )) as Array<{ inFlight: number; lastMinute: number }>;
    return row;
  }

  /** `queued -> running`, or a run whose worker was lost played again; null when another has it or it ended. */
  async claim(id: string): Promise<ScenarioRun | null> {
    const [run] = await queryEntities(
      this.dataSource.manager,
      ScenarioRun,
      `UPDATE scenario_runs SET status = 'running', updated_at = now()
        WHERE id = $1 AND (status = 'queued'
              OR (status = 'running' AND updated_at < now() - make_interval(secs => $2)))
        RETURNING *`,
      [id, RUN_STALE_SECONDS.running],
    );
    return run ?? null;
  }

  /** `running -> passed | failed | error` in `tx`; null when the run had already ended. */
  async finish(tx: Tx, id: string, outcome: RunOutcome): Promise<ScenarioRun | null> {
    const [run] = await queryEntities(
      tx,
      ScenarioRun,
      `UPDATE scenario_runs
          SET status = $2, transcript = $3, expectations = $4, duration_ms = $5, usage = $6, error = $7,
              updated_at = now()
        WHERE id = $1 AND status = 'running'
        RETURNING *`,
      [
        id,
        outcome.status,
        JSON.stringify(outcome.transcript),
        JSON.stringify(outcome.expectations),
        outcome.durationMs,
        outcome.usage === null ? null : JSON.stringify(outcome.usage),
        outcome.error,
      ],
    );
    return run ?? null;
  }

  /** Runs whose job or worker seems lost: queued or running past RUN_STALE_SECONDS, oldest first. */
  async stale(limit: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM scenario_runs
        WHERE (status = 'queued' AND updated_at < now() - make_interval(secs => $1))
           OR (status = 'running' AND updated_at < now() - make_interval(secs => $2))
        ORDER BY updated_at LIMIT $3`,
      [RUN_STALE_SECONDS.queued, RUN_STALE_SECONDS.running, limit],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }
}
