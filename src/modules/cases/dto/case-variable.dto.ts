import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { VARIABLE_SOURCES, VariableSource } from '../case.entity';

/** A name that `{{name}}` placeholders can reference: a letter or underscore, then letters, digits, underscores. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class CaseVariableDto {
  @ApiProperty({ example: 'appointment_date', pattern: VARIABLE_NAME.source, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @Matches(VARIABLE_NAME, { message: 'name must start with a letter or _ and contain only letters, digits and _' })
  name: string;

  @ApiProperty({ enum: VARIABLE_SOURCES })
  @IsIn(VARIABLE_SOURCES)
  source: VariableSource;

  @ApiPropertyOptional({ maxLength: 1000, description: 'Used when the source resolves to nothing' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  defaultValue?: string;

  @ApiPropertyOptional({ description: 'Whether a call must supply this value' })
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}
