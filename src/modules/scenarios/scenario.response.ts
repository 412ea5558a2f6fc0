import { ApiProperty } from '@nestjs/swagger';
import { ScenarioExpectDto } from './dto/create-scenario.dto';
import { Scenario } from './scenario.entity';

/** Extension: a scenario (docs/testing-your-assistant.md). */
export class ScenarioResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Books a Tuesday slot' }) name: string;
  @ApiProperty({ format: 'uuid' }) caseId: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { name: 'Ada' } })
  variables: Record<string, string>;
  @ApiProperty({ type: [String], example: ['Can I book for Tuesday?'] }) turns: string[];
  @ApiProperty({ type: ScenarioExpectDto }) expect: ScenarioExpectDto;
  @ApiProperty({ description: "The world it belongs to (the creating key's)" }) livemode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(s: Scenario): ScenarioResponse {
    return {
      id: s.id,
      name: s.name,
      caseId: s.caseId,
      variables: s.variables,
      turns: s.turns,
      expect: s.expect,
      livemode: s.livemode,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    };
  }
}
