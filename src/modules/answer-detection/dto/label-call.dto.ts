import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ANSWERED_BY, AnsweredBy } from '../../call-outcomes/answered-by';
import { MAX_LABEL_NOTE } from '../label-bounds';

export class LabelCallDto {
  @ApiProperty({ enum: ANSWERED_BY, description: 'Who a person heard answer the call' })
  @IsIn(ANSWERED_BY)
  answeredBy: AnsweredBy;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_LABEL_NOTE,
    description: `What the reviewer noticed; at most ${MAX_LABEL_NOTE} characters`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LABEL_NOTE)
  note?: string | null;
}
