import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { anyJsonProperty } from '../../common/openapi/any-json.property';
import { EXPECTATION_TYPES } from './scenario-expectations';
import { SCENARIO_RUN_STATUSES, ScenarioRun } from './scenario-run.entity';

export class SeenToolCallResponse {
  @ApiProperty({ example: 'book' }) name: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { day: 'Tuesday' } })
  arguments: Record<string, unknown>;
}

export class RunTranscriptLineResponse {
  @ApiProperty({ enum: ['user', 'assistant'] }) role: 'user' | 'assistant';
  @ApiProperty() text: string;
  @ApiPropertyOptional({ type: [SeenToolCallResponse], description: 'The tools the assistant called in this reply' })
  toolCalls?: SeenToolCallResponse[];
}

export class ExpectationResultResponse {
  @ApiProperty({ enum: EXPECTATION_TYPES }) type: string;
  @ApiProperty(anyJsonProperty({ description: 'The string, tool call or hand-off the scenario expects' }))
  expected: unknown;
  @ApiProperty() passed: boolean;
  @ApiProperty(anyJsonProperty({ description: 'What the run showed for it (docs/testing-your-assistant.md)' }))
  seen: unknown;
}

export class ScenarioRunUsageResponse {
  @ApiProperty() tokens: number;
  @ApiProperty() costUsd: number;
}

/** Extension: one run of a scenario (docs/testing-your-assistant.md); also the data of `scenario_run.completed`. */
export class ScenarioRunResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) scenarioId: string;
  @ApiProperty({ format: 'uuid' }) caseId: string;
  @ApiProperty({ example: 2 }) caseVersion: number;
  @ApiProperty({ enum: SCENARIO_RUN_STATUSES }) status: string;
  @ApiProperty({ type: [RunTranscriptLineResponse] }) transcript: RunTranscriptLineResponse[];
  @ApiProperty({ type: [ExpectationResultResponse], description: 'Empty until the run ends' })
  expectations: ExpectationResultResponse[];
  @ApiProperty({ type: Number, nullable: true, description: 'How long the conversation took; null until it ends' })
  durationMs: number | null;
  @ApiProperty({
    type: ScenarioRunUsageResponse,
    nullable: true,
    description: "The chat platform's tokens and cost; null on the simulator",
  })
  usage: ScenarioRunUsageResponse | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the run could not be played (status `error`)' })
  error: string | null;
  @ApiProperty({ description: "The world it belongs to (the starting key's): false on the simulator" })
  livemode: boolean;

  static from(r: ScenarioRun): ScenarioRunResponse {
    return {
      id: r.id,
      scenarioId: r.scenarioId,
      caseId: r.caseId,
      caseVersion: r.caseVersion,
      status: r.status,
      transcript: r.transcript,
      expectations: r.expectations,
      durationMs: r.durationMs,
      usage: r.usage,
      error: r.error,
      livemode: r.livemode,
    };
  }
}

export class ScenarioRunsSummaryResponse {
  @ApiProperty() passed: number;
  @ApiProperty() failed: number;
  @ApiProperty({ description: 'Runs not ended yet (queued or running); errors count as failed' }) pending: number;
}

/** The runs of a case's scenarios, started together. */
export class CaseScenarioRunsResponse {
  @ApiProperty({ type: [ScenarioRunResponse] }) runs: ScenarioRunResponse[];
  @ApiProperty({ type: ScenarioRunsSummaryResponse }) summary: ScenarioRunsSummaryResponse;
}
