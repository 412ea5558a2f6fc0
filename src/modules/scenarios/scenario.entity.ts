import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { ScenarioExpect } from './scenario-expectations';

/** A scripted text conversation with a case's assistant and what it must show (docs/testing-your-assistant.md). */
@Entity('scenarios')
@Index('ix_scenarios_world_created', ['organizationId', 'livemode', 'createdAt', 'id'])
@Index('ix_scenarios_case', ['caseId', 'createdAt', 'id'])
export class Scenario {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('boolean') livemode: boolean;
  @Column('uuid') caseId: string;
  @Column('text') name: string;
  @Column('jsonb', { default: () => "'{}'" }) variables: Record<string, string>;
  /** The user's texts, in order. */
  @Column('jsonb') turns: string[];
  @Column('jsonb') expect: ScenarioExpect;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
