import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../../../infra/database/tx';
import { RetellClient } from './retell-client';
import type { RetellAgentSpec } from './retell-agent-spec';
import { RetellAgentsRepository } from './retell-agents.repository';

/**
 * The Retell agent a call is placed with: made when a source's first call needs it, reused while what it is built
 * from is unchanged (same hash: no request to Retell at all), updated in place when it changed
 * (PATCH /update-retell-llm, PATCH /update-agent). Made and updated under the source's lock, so two processes
 * placing the source's first calls together make one LLM and one agent.
 */
@Injectable()
export class RetellAgents {
  private readonly logger = new Logger(RetellAgents.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly rows: RetellAgentsRepository,
    private readonly client: RetellClient,
  ) {}

  /** The agent id for this source built as `spec`. */
  async agentFor(organizationId: string, source: string, spec: RetellAgentSpec): Promise<string> {
    const known = await this.rows.find(organizationId, source);
    if (known?.specHash === spec.hash) return known.agentId;
    return inTransaction(this.dataSource, async (tx) => {
      await this.rows.lock(tx, organizationId, source);
      const row = await this.rows.find(organizationId, source, tx);
      if (row?.specHash === spec.hash) return row.agentId;
      if (row) {
        await this.client.updateLlm(row.llmId, spec.llm);
        await this.client.updateAgent(row.agentId, spec.agent);
        await this.rows.save(tx, organizationId, source, { ...row, specHash: spec.hash });
        this.logger.log({ organizationId, source, agentId: row.agentId }, 'Retell agent updated');
        return row.agentId;
      }
      const llm = await this.client.createLlm(spec.llm);
      const agent = await this.client.createAgent({
        ...spec.agent,
        response_engine: { type: 'retell-llm', llm_id: llm.llm_id },
      });
      await this.rows.save(tx, organizationId, source, {
        specHash: spec.hash,
        llmId: llm.llm_id,
        agentId: agent.agent_id,
      });
      this.logger.log({ organizationId, source, agentId: agent.agent_id }, 'Retell agent created');
      return agent.agent_id;
    });
  }
}
