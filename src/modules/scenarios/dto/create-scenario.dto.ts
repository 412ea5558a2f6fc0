import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { IsFlatRecord } from '../../../common/validation/is-flat-record.decorator';
import { VARIABLE_VALUES_LIMITS } from '../../calls/variable-values-limits';
import { SCENARIO_BOUNDS as B } from '../scenario-bounds';

/** An object of at most `argumentKeys` keys and `argumentBytes` bytes serialised. */
function IsBoundedArguments(): PropertyDecorator {
  return ValidateBy({
    name: 'isBoundedArguments',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= B.argumentKeys &&
        Buffer.byteLength(JSON.stringify(value)) <= B.argumentBytes,
      defaultMessage: (args) =>
        `${args?.property} must be an object of at most ${B.argumentKeys} keys and ${B.argumentBytes} bytes`,
    },
  });
}

/** A list of strings matched against the assistant's replies. */
function ReplyStrings(example: string[], rule: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: B.replyText },
      maxItems: B.replyStrings,
      example,
      description: `${rule}; at most ${B.replyStrings}, each 1-${B.replyText} characters`,
    }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(B.replyStrings),
    IsString({ each: true }),
    Length(1, B.replyText, { each: true }),
  );
}

export class ExpectedToolCallDto {
  @ApiProperty({ minLength: 1, maxLength: B.toolName, example: 'book', description: "The tool's name" })
  @IsString()
  @Length(1, B.toolName)
  name: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    maxProperties: B.argumentKeys,
    example: { day: 'Tuesday' },
    description:
      `Each key must be among the call's arguments: a string value contained in it (any case), any other value ` +
      `equal. At most ${B.argumentKeys} keys, ${B.argumentBytes} bytes serialised`,
  })
  @IsOptional()
  @IsObject()
  @IsBoundedArguments()
  argumentsInclude?: Record<string, unknown>;
}

export class ScenarioExpectDto {
  @ReplyStrings(['Tuesday'], 'Each must appear in some reply of the assistant (any case)')
  replyIncludes?: string[];

  @ReplyStrings(['refund'], 'None may appear in any reply of the assistant (any case)')
  replyExcludes?: string[];

  @ApiPropertyOptional({
    type: [ExpectedToolCallDto],
    maxItems: B.toolCalls,
    example: [{ name: 'book', argumentsInclude: { day: 'Tuesday' } }],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(B.toolCalls)
  @ValidateNested({ each: true })
  @Type(() => ExpectedToolCallDto)
  toolCalls?: ExpectedToolCallDto[];

  @ApiPropertyOptional({ description: 'Whether the conversation must be handed off to a person' })
  @IsOptional()
  @IsBoolean()
  handOff?: boolean;
}

export class CreateScenarioDto {
  @ApiProperty({ minLength: 1, maxLength: B.name, example: 'Books a Tuesday slot' })
  @IsString()
  @Length(1, B.name)
  name: string;

  @ApiProperty({
    format: 'uuid',
    description: "The case whose assistant the scenario talks to (the key's organization's)",
  })
  @IsUUID()
  caseId: string;

  @ApiPropertyOptional({
    type: 'object',
    maxProperties: VARIABLE_VALUES_LIMITS.maxKeys,
    additionalProperties: { type: 'string', maxLength: VARIABLE_VALUES_LIMITS.maxStringLength },
    description:
      "The case's `{{variables}}` for the conversation, as a call's variableValues (the same bounds); `name` is " +
      'also how the simulator greets the user',
    example: { name: 'Ada' },
  })
  @IsOptional()
  @IsObject()
  @IsFlatRecord(VARIABLE_VALUES_LIMITS)
  variables?: Record<string, string>;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: B.turns,
    // Each text's bounds, stated here as well as by @Length: generated OpenAPI metadata keeps only literal bounds.
    minLength: 1,
    maxLength: B.turnText,
    example: ['Hi, can I book for Tuesday?'],
    description: `The user's texts, in order; 1-${B.turns}, each 1-${B.turnText} characters`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(B.turns)
  @IsString({ each: true })
  @Length(1, B.turnText, { each: true })
  turns: string[];

  @ApiProperty({ type: ScenarioExpectDto })
  @ValidateNested()
  @Type(() => ScenarioExpectDto)
  expect: ScenarioExpectDto;
}
