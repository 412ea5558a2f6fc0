import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { TRANSFER_MODES, TransferMode } from '../tool.entity';
import { TOOL_LIMITS } from '../tool-limits';
import { toolParametersProblem } from '../tool-parameters';

const NAME_RULE = 'letters, digits, `_` and `-`, 1-64 characters, unique in the organization';

export class ToolMessagesDto {
  @ApiPropertyOptional({ maxLength: TOOL_LIMITS.message, description: 'Said while the tool runs' })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.message)
  start?: string;

  @ApiPropertyOptional({ maxLength: TOOL_LIMITS.message, description: 'What the assistant hears when the call fails' })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.message)
  failed?: string;
}

export class TransferDestinationDto {
  @ApiProperty({ example: '+14155550150', description: 'E.164' })
  @IsE164()
  number: string;

  @ApiPropertyOptional({ maxLength: TOOL_LIMITS.description, description: 'When the assistant should pick it' })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.description)
  description?: string;

  @ApiPropertyOptional({ maxLength: TOOL_LIMITS.message, description: 'Said to the caller before transferring' })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.message)
  message?: string;

  @ApiPropertyOptional({
    maxLength: TOOL_LIMITS.message,
    description:
      '`warm` only: said to the person taking the call before the caller is connected (default: a short notice ' +
      'that a call is being transferred to them); refused on `cold`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.message)
  handoffMessage?: string;

  @ApiProperty({ enum: TRANSFER_MODES, description: '`cold`: handed over at once; `warm`: after `message`' })
  @IsIn(TRANSFER_MODES)
  mode: TransferMode;
}

/**
 * A tool's fields, each checked for its own shape here; which ones a type requires or refuses is checked by
 * ToolsService against the whole tool (docs/tools.md, "Tools"), so create and update apply the same rules.
 */
export class ToolFieldsDto {
  @ApiPropertyOptional({
    pattern: TOOL_LIMITS.name.source,
    description: `${NAME_RULE}; required except on platform tools`,
  })
  @IsOptional()
  @IsString()
  @Matches(TOOL_LIMITS.name, { message: `name must be ${NAME_RULE}` })
  name?: string;

  @ApiPropertyOptional({
    maxLength: TOOL_LIMITS.description,
    description: 'function: what the tool does, for the model',
  })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.description)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `function (required): JSON Schema of the arguments, \`"type": "object"\`, at most ${TOOL_LIMITS.parametersBytes} bytes; it must compile`,
  })
  @IsOptional()
  @IsObject()
  @ValidateBy({
    name: 'isToolParameters',
    validator: {
      validate: (value: unknown) => toolParametersProblem(value) === null,
      defaultMessage: (args) => `parameters ${toolParametersProblem(args?.value) ?? 'is invalid'}`,
    },
  })
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({
    maxLength: 2048,
    example: 'https://example.com/tools/lookup',
    description: 'function (required): where the tool is called; https, under the webhook URL rules',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    minimum: TOOL_LIMITS.timeoutSeconds.min,
    maximum: TOOL_LIMITS.timeoutSeconds.max,
    default: TOOL_LIMITS.timeoutSeconds.default,
    description: 'function: how long an answer is awaited',
  })
  @IsOptional()
  @IsInt()
  @Min(TOOL_LIMITS.timeoutSeconds.min)
  @Max(TOOL_LIMITS.timeoutSeconds.max)
  timeoutSeconds?: number;

  @ApiPropertyOptional({ type: ToolMessagesDto, description: 'function' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ToolMessagesDto)
  messages?: ToolMessagesDto;

  @ApiPropertyOptional({
    type: [TransferDestinationDto],
    minItems: TOOL_LIMITS.destinations.min,
    maxItems: TOOL_LIMITS.destinations.max,
    description: 'transfer (required): 1-10 destinations',
  })
  @IsOptional()
  @ArrayMinSize(TOOL_LIMITS.destinations.min)
  @ArrayMaxSize(TOOL_LIMITS.destinations.max)
  @ValidateNested({ each: true })
  @Type(() => TransferDestinationDto)
  destinations?: TransferDestinationDto[];

  @ApiPropertyOptional({
    maxLength: TOOL_LIMITS.providerToolId,
    description: 'platform (required): the id of a tool that exists on the voice platform',
  })
  @IsOptional()
  @IsString()
  @MaxLength(TOOL_LIMITS.providerToolId)
  providerToolId?: string;
}
