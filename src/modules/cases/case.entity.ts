import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { AnalysisPlan } from '../call-outcomes/analysis-plan';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';

export const VARIABLE_SOURCES = ['contact.title', 'contact.email', 'contact.notes', 'contact.phone', 'custom'] as const;
export type VariableSource = (typeof VARIABLE_SOURCES)[number];

export interface CaseVariable {
  name: string;
  source: VariableSource;
  defaultValue?: string;
  required?: boolean;
}

/** A reusable call script: opening line, system prompt with `{{variables}}`, variable definitions. */
@Entity('cases')
@Index('ix_cases_org_created', ['organizationId', 'createdAt', 'id'])
export class Case {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') title: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) firstMessage: string | null;
  @Column('text') prompt: string;
  /** When set, calls use this prompt-library entry's content and `prompt` is only a fallback. */
  @Column('uuid', { nullable: true }) systemPromptId: string | null;
  @Column('jsonb', { default: () => "'[]'" }) variables: CaseVariable[];
  @Column('text', { array: true, default: () => "'{}'" }) tags: string[];
  /** Dashboard-only: stored and returned, never changed through the API. */
  @Column('text', { array: true, default: () => "'{}'" }) toolIds: string[];
  @Column('text', { array: true, default: () => "'{}'" }) integrationToolIds: string[];
  @Column('text', { nullable: true }) keyterms: string | null;
  /** Extension: what the case's calls do on reaching an answering machine (null: the assistant's, else the default). */
  @Column('jsonb', { nullable: true }) voicemail: VoicemailPolicy | null;
  /** Extension: the post-call analysis the case's calls get. */
  @Column('jsonb', { nullable: true }) analysis: AnalysisPlan | null;
  /** Extension: the current version of its content (`case_versions`), moved by every change of that content. */
  @Column('integer', { default: 1 }) version: number;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
