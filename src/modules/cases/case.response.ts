import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AnalysisPlanResponse } from '../call-outcomes/analysis-plan';
import { VoicemailPolicyResponse } from '../call-outcomes/voicemail-policy';
import { Case, CaseVariable, VARIABLE_SOURCES } from './case.entity';

export class CaseVariableResponse {
  @ApiProperty({ example: 'appointment_date' }) name: string;
  @ApiProperty({ enum: VARIABLE_SOURCES }) source: string;
  @ApiPropertyOptional() defaultValue?: string;
  @ApiPropertyOptional() required?: boolean;
}

/** The full Case object (get, create, update). */
export class CaseResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Appointment reminder' }) title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Hi {{name}}, this is Acme Dental.' }) firstMessage:
    string | null;
  @ApiProperty({ description: 'System prompt; supports {{variables}}' }) prompt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'When set, calls use this prompt-library entry and `prompt` is only a fallback',
  })
  systemPromptId: string | null;
  @ApiProperty({ type: [CaseVariableResponse] }) variables: CaseVariableResponse[];
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String], description: 'Attached in the dashboard only' }) toolIds: string[];
  @ApiProperty({ type: [String], description: 'Attached in the dashboard only' }) integrationToolIds: string[];
  @ApiProperty({ type: String, nullable: true, description: 'Newline-separated' }) keyterms: string | null;
  @ApiProperty({
    type: VoicemailPolicyResponse,
    nullable: true,
    description: 'Extension (docs/tools.md); null: not set',
  })
  voicemail: VoicemailPolicyResponse | null;
  @ApiProperty({ type: AnalysisPlanResponse, nullable: true, description: 'Extension (docs/tools.md); null: none' })
  analysis: AnalysisPlanResponse | null;
  @ApiProperty({
    example: 1,
    minimum: 1,
    description:
      'Extension (docs/testing-your-assistant.md): the current version of its content, moved by every change of ' +
      'the prompt, first message, variables, tools, voicemail or analysis (never by a rename)',
  })
  version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(c: Case): CaseResponse {
    return {
      id: c.id,
      title: c.title,
      description: c.description,
      firstMessage: c.firstMessage,
      prompt: c.prompt,
      systemPromptId: c.systemPromptId,
      variables: c.variables.map(variableResponse),
      tags: c.tags,
      toolIds: c.toolIds,
      integrationToolIds: c.integrationToolIds,
      keyterms: c.keyterms,
      voicemail: c.voicemail ?? null,
      analysis: c.analysis ?? null,
      version: c.version,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  }
}

/** The list representation: variables as their names only. */
export class CaseListItemResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) firstMessage: string | null;
  @ApiProperty({ type: [String], description: 'Variable names', example: ['name', 'appointment_date'] })
  variables: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(c: Case): CaseListItemResponse {
    return {
      id: c.id,
      title: c.title,
      description: c.description,
      firstMessage: c.firstMessage,
      variables: c.variables.map((v) => v.name),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  }
}

export function variableResponse(v: CaseVariable): CaseVariableResponse {
  return {
    name: v.name,
    source: v.source,
    ...(v.defaultValue !== undefined ? { defaultValue: v.defaultValue } : {}),
    ...(v.required !== undefined ? { required: v.required } : {}),
  };
}
