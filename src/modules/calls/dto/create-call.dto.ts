import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { CompiledValidation } from '../../../common/validation/compiled-validation';
import { IsBoundedDate } from '../../../common/validation/is-bounded-date.decorator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { IsFlatRecord } from '../../../common/validation/is-flat-record.decorator';
import { VARIABLE_VALUES_LIMITS } from '../variable-values-limits';

/** Every outbound call's body (the API's and the dialer's clients): validated on the compiled path. */
@CompiledValidation()
export class CreateCallDto {
  /** Destination, E.164. */
  @IsE164()
  to: string;

  /** Caller ID: one of the organization's phone numbers, E.164. */
  @IsE164()
  from: string;

  @IsOptional() @IsUUID() contactId?: string;
  @IsOptional() @IsUUID() caseId?: string;

  @ApiPropertyOptional({
    minimum: 1,
    example: 1,
    description:
      "Extension (docs/testing-your-assistant.md): run this version of the case's content instead of its current " +
      'one (400 VALIDATION_ERROR when the case has no such version); needs `caseId`',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  caseVersion?: number;

  /** Outbound assistant; omitted: platform defaults (not the assistant flagged `isDefault`). */
  @IsOptional() @IsUUID() assistantConfigId?: string;

  /** Overrides the case's first message; supports `{{variables}}`. */
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  firstMessage?: string;

  /** ISO 8601, in the future (years 1970-9999); omitted means immediate. */
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsBoundedDate()
  scheduledAt?: string;

  @ApiPropertyOptional({
    type: 'object',
    maxProperties: VARIABLE_VALUES_LIMITS.maxKeys,
    additionalProperties: { type: 'string', maxLength: VARIABLE_VALUES_LIMITS.maxStringLength },
    description:
      `At most ${VARIABLE_VALUES_LIMITS.maxKeys} keys of 1-${VARIABLE_VALUES_LIMITS.maxKeyLength} characters, string ` +
      `values of at most ${VARIABLE_VALUES_LIMITS.maxStringLength} characters. The rendered first message may not ` +
      `exceed 1000 characters nor the rendered system prompt 50000 (400 VALIDATION_ERROR naming the field)`,
    example: { name: 'Ada' },
  })
  @IsOptional()
  @IsObject()
  @IsFlatRecord(VARIABLE_VALUES_LIMITS)
  variableValues?: Record<string, string>;
}
