import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { TEMPLATE_STATUSES, TemplateStatus } from '../messaging-template.entity';

export class CreateMessagingTemplateDto {
  @ApiProperty({ minLength: 1, maxLength: 512, example: 'appointment_reminder' })
  @IsString()
  @Length(1, 512)
  name: string;
  @ApiProperty({ minLength: 1, maxLength: 20, example: 'en_US' })
  @IsString()
  @Length(1, 20)
  language: string;
  @ApiPropertyOptional({ enum: TEMPLATE_STATUSES, default: 'APPROVED', description: 'Only APPROVED templates send' })
  @IsOptional()
  @IsIn(TEMPLATE_STATUSES)
  status?: TemplateStatus;
  @ApiProperty({
    minLength: 1,
    maxLength: 1024,
    example: 'Hi {{1}}, your appointment is on {{2}}.',
    description: 'Text with positional ({{1}}, {{2}}, ...) or named placeholders; a send supplies exactly these',
  })
  @IsString()
  @Length(1, 1024)
  body: string;
}
