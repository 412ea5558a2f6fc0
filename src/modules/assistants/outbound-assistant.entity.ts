import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { VoicemailPolicy } from '../call-outcomes/voicemail-policy';

export interface VoiceConfig {
  provider: string;
  voiceId: string;
  model?: string;
  language?: string;
  stability?: number;
  similarityBoost?: number;
  speed?: number;
}

export interface ModelConfig {
  provider: string;
  model: string;
  temperature: number;
}

export interface TranscriberConfig {
  provider: string;
  model: string;
  language: string;
}

/** A reusable voice configuration; a call names it with `assistantConfigId`. At most one default per organization. */
@Entity('outbound_assistants')
@Index('ux_outbound_assistants_one_default', ['organizationId'], { unique: true, where: 'is_default' })
@Index('ix_outbound_assistants_org_created', ['organizationId', 'createdAt', 'id'])
export class OutboundAssistant {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('boolean', { default: false }) isDefault: boolean;
  @Column('jsonb') voice: VoiceConfig;
  @Column('jsonb') model: ModelConfig;
  @Column('jsonb') transcriber: TranscriberConfig;
  @Column('text', { nullable: true }) firstMessage: string | null;
  @Column('text', { nullable: true }) systemPrompt: string | null;
  @Column('boolean', { default: false }) dialKeypadFunctionEnabled: boolean;
  @Column('boolean', { default: true }) backchannelingEnabled: boolean;
  @Column('boolean', { default: true }) backgroundDenoisingEnabled: boolean;
  /** Extension: what its calls do on reaching an answering machine (docs/tools.md); null: not set here. */
  @Column('jsonb', { nullable: true }) voicemail: VoicemailPolicy | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
