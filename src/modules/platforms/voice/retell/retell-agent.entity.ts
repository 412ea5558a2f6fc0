import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../../../common/entities/timestamps';

/**
 * The Retell LLM and agent made for one source of calls (an organization's case and assistant, or its inbound
 * assistant), and the hash of what they were built from: a call whose build differs updates them, so Retell holds
 * one LLM and one agent per source, never one per call (docs/providers.md, "Retell").
 */
@Entity('retell_agents')
export class RetellAgent {
  @PrimaryColumn('uuid') organizationId: string;
  /** `case:<id|->/assistant:<id|->` or `inbound`. */
  @PrimaryColumn('text') source: string;
  @Column('text') specHash: string;
  @Column('text') llmId: string;
  @Column('text') agentId: string;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
