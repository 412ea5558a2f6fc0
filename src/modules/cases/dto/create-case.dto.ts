import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { AnalysisPlanDto } from '../../call-outcomes/analysis-plan';
import { VoicemailPolicyDto, VoicemailPolicyField } from '../../call-outcomes/voicemail-policy';
import { CaseVariableDto } from './case-variable.dto';

export class CreateCaseDto {
  @IsString() @Length(1, 200) title: string;

  /** System prompt; supports `{{variables}}`. */
  @IsString() @Length(1, 50_000) prompt: string;

  /** Opening line; supports `{{variables}}`. Defaults to empty text. */
  @IsOptional() @IsString() @MaxLength(1000) firstMessage?: string;

  @IsOptional() @IsString() @MaxLength(2000) description?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'Each 1-50 characters' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 50, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ type: [CaseVariableDto], maxItems: 50, description: 'Names must be unique' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique((v: CaseVariableDto) => v?.name, { message: 'variables must have unique names' })
  @ValidateNested({ each: true })
  @Type(() => CaseVariableDto)
  variables?: CaseVariableDto[];

  /** Newline-separated terms biasing speech recognition. */
  @IsOptional() @IsString() @MaxLength(5000) keyterms?: string;

  @VoicemailPolicyField("the case's")
  voicemail?: VoicemailPolicyDto;

  @ApiPropertyOptional({
    type: AnalysisPlanDto,
    description: 'Extension: the post-call analysis its calls get (summary, structured data, success; docs/tools.md)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => AnalysisPlanDto)
  analysis?: AnalysisPlanDto;
}
