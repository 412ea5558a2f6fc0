import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateBy,
  ValidationOptions,
} from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';

const MAX_VARIABLES = 100;

/** An object whose values are all strings (at most 100 keys): the `{{placeholder}}` values of a call. */
function IsStringRecord(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringRecord',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_VARIABLES &&
          Object.values(value).every((v) => typeof v === 'string' && v.length <= 10_000),
        defaultMessage: (args) =>
          `${args?.property} must be an object of at most ${MAX_VARIABLES} string values (each up to 10000 characters)`,
      },
    },
    options,
  );
}

export class CreateCallDto {
  /** Destination, E.164. */
  @IsE164()
  to: string;

  /** Caller ID: one of the organization's phone numbers, E.164. */
  @IsE164()
  from: string;

  @IsOptional() @IsUUID() contactId?: string;
  @IsOptional() @IsUUID() caseId?: string;

  /** Outbound assistant; omitted: platform defaults (not the assistant flagged `isDefault`). */
  @IsOptional() @IsUUID() assistantConfigId?: string;

  /** Overrides the case's first message; supports `{{variables}}`. */
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  firstMessage?: string;

  /** ISO 8601, in the future; omitted means immediate. */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  scheduledAt?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { name: 'Ada' } })
  @IsOptional()
  @IsObject()
  @IsStringRecord()
  variableValues?: Record<string, string>;
}
