import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import type { AnalysisPlan } from '../call-outcomes/analysis-plan';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';
import type { CaseVariable } from './case.entity';

/**
 * One immutable version of a case's content: what its calls and scenario runs use when they name the version
 * (docs/testing-your-assistant.md, "Case versions"). Written once, never updated; deleted with its case.
 */
@Entity('case_versions')
@Index('uq_case_versions_case_version', ['caseId', 'version'], { unique: true })
@Index('ix_case_versions_case_created', ['caseId', 'createdAt', 'id'])
export class CaseVersion {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') caseId: string;
  @Column('integer') version: number;
  @Column('text') prompt: string;
  @Column('uuid', { nullable: true }) systemPromptId: string | null;
  @Column('text', { nullable: true }) firstMessage: string | null;
  @Column('jsonb', { default: () => "'[]'" }) variables: CaseVariable[];
  @Column('text', { array: true, default: () => "'{}'" }) toolIds: string[];
  @Column('text', { array: true, default: () => "'{}'" }) integrationToolIds: string[];
  @Column('jsonb', { nullable: true }) voicemail: VoicemailPolicy | null;
  @Column('jsonb', { nullable: true }) analysis: AnalysisPlan | null;
  @CreatedAt() createdAt: Date;
}
