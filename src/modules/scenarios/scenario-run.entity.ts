import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { ExpectationResult, RunTranscriptLine } from './scenario-expectations';

export const SCENARIO_RUN_STATUSES = ['queued', 'running', 'passed', 'failed', 'error'] as const;
export type ScenarioRunStatus = (typeof SCENARIO_RUN_STATUSES)[number];
/** A run in one of these has not ended: it counts against the organization's runs in flight. */
export const RUN_IN_FLIGHT: readonly ScenarioRunStatus[] = ['queued', 'running'];

/** One run of a scenario: queued by the API, played by a worker (ScenarioRunJob), judged once. */
@Entity('scenario_runs')
@Index('ix_scenario_runs_org_created', ['organizationId', 'createdAt'])
@Index('ix_scenario_runs_scenario', ['scenarioId', 'createdAt', 'id'])
@Index('ix_scenario_runs_in_flight', ['status', 'updatedAt'], { where: `status IN ('queued', 'running')` })
export class ScenarioRun {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('boolean') livemode: boolean;
  @Column('uuid') scenarioId: string;
  @Column('uuid') caseId: string;
  @Column('integer') caseVersion: number;
  @Column('text') status: ScenarioRunStatus;
  @Column('jsonb', { default: () => "'[]'" }) transcript: RunTranscriptLine[];
  @Column('jsonb', { default: () => "'[]'" }) expectations: ExpectationResult[];
  @Column('integer', { nullable: true }) durationMs: number | null;
  @Column('jsonb', { nullable: true }) usage: { tokens: number; costUsd: number } | null;
  @Column('text', { nullable: true }) error: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
