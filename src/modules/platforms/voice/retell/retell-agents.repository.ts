import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { lockForTransaction } from '../../../../infra/database/advisory-locks';
import type { Tx } from '../../../../infra/database/tx';
import { RetellAgent } from './retell-agent.entity';

export type RetellAgentRow = Pick<RetellAgent, 'specHash' | 'llmId' | 'agentId'>;

/** The SQL of `retell_agents`. */
@Injectable()
export class RetellAgentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(
    organizationId: string,
    source: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<RetellAgentRow | null> {
    const [row]: RetellAgentRow[] = await manager.query(
      `SELECT spec_hash AS "specHash", llm_id AS "llmId", agent_id AS "agentId"
         FROM retell_agents WHERE organization_id = $1 AND source = $2`,
      [organizationId, source],
    );
    return row ?? null;
  }

  /** Held until the transaction ends: one process at a time makes or updates a source's LLM and agent. */
  lock(tx: Tx, organizationId: string, source: string): Promise<void> {
    return lockForTransaction(tx, 'retellAgents', `${organizationId}/${source}`);
  }

  async save(tx: Tx, organizationId: string, source: string, row: RetellAgentRow): Promise<void> {
    await tx.query(
      `INSERT INTO retell_agents (organization_id, source, spec_hash, llm_id, agent_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, now(), now())
       ON CONFLICT (organization_id, source) DO UPDATE
         SET spec_hash = EXCLUDED.spec_hash, llm_id = EXCLUDED.llm_id, agent_id = EXCLUDED.agent_id,
             updated_at = now()`,
      [organizationId, source, row.specHash, row.llmId, row.agentId],
    );
  }
}
