import { ApiProperty } from '@nestjs/swagger';
import { AnalysisPlanResponse } from '../call-outcomes/analysis-plan';
import { VoicemailPolicyResponse } from '../call-outcomes/voicemail-policy';
import { CaseVariableResponse, variableResponse } from './case.response';
import { CaseVersion } from './case-version.entity';

/** Extension: one immutable version of a case's content (docs/testing-your-assistant.md, "Case versions"). */
export class CaseVersionResponse {
  @ApiProperty({ example: 2, minimum: 1 }) version: number;
  @ApiProperty({ description: 'System prompt; supports {{variables}}' }) prompt: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) systemPromptId: string | null;
  @ApiProperty({ type: String, nullable: true }) firstMessage: string | null;
  @ApiProperty({ type: [CaseVariableResponse] }) variables: CaseVariableResponse[];
  @ApiProperty({ type: [String] }) toolIds: string[];
  @ApiProperty({ type: [String] }) integrationToolIds: string[];
  @ApiProperty({ type: VoicemailPolicyResponse, nullable: true }) voicemail: VoicemailPolicyResponse | null;
  @ApiProperty({ type: AnalysisPlanResponse, nullable: true }) analysis: AnalysisPlanResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(v: CaseVersion): CaseVersionResponse {
    return {
      version: v.version,
      prompt: v.prompt,
      systemPromptId: v.systemPromptId,
      firstMessage: v.firstMessage,
      variables: v.variables.map(variableResponse),
      toolIds: v.toolIds,
      integrationToolIds: v.integrationToolIds,
      voicemail: v.voicemail ?? null,
      analysis: v.analysis ?? null,
      createdAt: v.createdAt.toISOString(),
    };
  }
}
