import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreatePromptDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 50_000,
    example: 'You are the front desk of Acme Dental. Book, move or cancel appointments.',
    description: 'The system prompt; supports {{variables}} like a case prompt',
  })
  @IsString()
  @Length(1, 50_000)
  content: string;
}
