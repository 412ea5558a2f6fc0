import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VoicemailPolicyResponse } from '../call-outcomes/voicemail-policy';
import { OutboundAssistant } from './outbound-assistant.entity';

export class VoiceConfigResponse {
  @ApiProperty({ example: '11labs' }) provider: string;
  @ApiProperty({ example: 'rachel' }) voiceId: string;
  @ApiPropertyOptional() model?: string;
  @ApiPropertyOptional() language?: string;
  @ApiPropertyOptional() stability?: number;
  @ApiPropertyOptional() similarityBoost?: number;
  @ApiPropertyOptional() speed?: number;
}

export class ModelConfigResponse {
  @ApiProperty({ example: 'openai' }) provider: string;
  @ApiProperty({ example: 'gpt-4o-mini' }) model: string;
  @ApiProperty({ minimum: 0, maximum: 2, example: 0.7 }) temperature: number;
}

export class TranscriberConfigResponse {
  @ApiProperty({ example: 'deepgram' }) provider: string;
  @ApiProperty({ example: 'nova-2' }) model: string;
  @ApiProperty({ example: 'en' }) language: string;
}

/** The full Outbound assistant object (get, create, update). */
export class OutboundAssistantResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Friendly reminder voice' }) name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: "The dashboard's preferred assistant; not consulted by call creation" })
  isDefault: boolean;
  @ApiProperty({ type: VoiceConfigResponse }) voice: VoiceConfigResponse;
  @ApiProperty({ type: ModelConfigResponse }) model: ModelConfigResponse;
  @ApiProperty({ type: TranscriberConfigResponse }) transcriber: TranscriberConfigResponse;
  @ApiProperty({ type: String, nullable: true }) firstMessage: string | null;
  @ApiProperty({ type: String, nullable: true }) systemPrompt: string | null;
  @ApiProperty() dialKeypadFunctionEnabled: boolean;
  @ApiProperty() backchannelingEnabled: boolean;
  @ApiProperty() backgroundDenoisingEnabled: boolean;
  @ApiProperty({
    type: VoicemailPolicyResponse,
    nullable: true,
    description: 'Extension (docs/tools.md); null: not set',
  })
  voicemail: VoicemailPolicyResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(a: OutboundAssistant): OutboundAssistantResponse {
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      isDefault: a.isDefault,
      voice: a.voice,
      model: a.model,
      transcriber: a.transcriber,
      firstMessage: a.firstMessage,
      systemPrompt: a.systemPrompt,
      dialKeypadFunctionEnabled: a.dialKeypadFunctionEnabled,
      backchannelingEnabled: a.backchannelingEnabled,
      backgroundDenoisingEnabled: a.backgroundDenoisingEnabled,
      voicemail: a.voicemail ?? null,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }
}

export class VoiceSummaryResponse {
  @ApiProperty() provider: string;
  @ApiProperty() voiceId: string;
}

export class ModelSummaryResponse {
  @ApiProperty() provider: string;
  @ApiProperty() model: string;
}

/** The columns the list reads. */
export type OutboundAssistantSummary = Pick<
  OutboundAssistant,
  'id' | 'name' | 'description' | 'isDefault' | 'voice' | 'model' | 'createdAt' | 'updatedAt'
>;

/** The list representation. */
export class OutboundAssistantSummaryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() isDefault: boolean;
  @ApiProperty({ type: VoiceSummaryResponse }) voice: VoiceSummaryResponse;
  @ApiProperty({ type: ModelSummaryResponse }) model: ModelSummaryResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(a: OutboundAssistantSummary): OutboundAssistantSummaryResponse {
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      isDefault: a.isDefault,
      voice: { provider: a.voice.provider, voiceId: a.voice.voiceId },
      model: { provider: a.model.provider, model: a.model.model },
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }
}
