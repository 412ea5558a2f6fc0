import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional, IsString, IsUUID, Length, ValidateBy } from 'class-validator';

const MAX_VARIABLES = 100;
const MAX_VARIABLE_LENGTH = 1024;

/** A flat object of placeholder name to string value (class-validator's `each` does not reach into objects). */
function IsVariables(): PropertyDecorator {
  return ValidateBy({
    name: 'isVariables',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= MAX_VARIABLES &&
        Object.values(value).every((v) => typeof v === 'string' && v.length <= MAX_VARIABLE_LENGTH),
      defaultMessage: () =>
        `variables must be an object of at most ${MAX_VARIABLES} placeholder names to strings ` +
        `of at most ${MAX_VARIABLE_LENGTH} characters`,
    },
  });
}

export const MESSAGE_TYPES = ['text', 'template'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A free-form message; only inside the 24 hours after the user's last message. */
export class SendTextMessageDto {
  @ApiProperty({ enum: ['text'] }) @Equals('text') type: 'text';
  @ApiProperty({ format: 'uuid' }) @IsUUID() conversationId: string;
  @ApiProperty({ maxLength: 4096, example: 'Your appointment is confirmed.' })
  @IsString()
  @Length(1, 4096)
  text: string;
}

/** A registered, approved template; allowed at any time. */
export class SendTemplateMessageDto {
  @ApiProperty({ enum: ['template'] }) @Equals('template') type: 'template';
  @ApiProperty({ format: 'uuid' }) @IsUUID() conversationId: string;
  @ApiProperty({ description: 'Exact registered template name', example: 'appointment_reminder' })
  @IsString()
  @Length(1, 512)
  templateName: string;
  @ApiProperty({ description: 'Language code of the template', example: 'en_US' })
  @IsString()
  @Length(1, 20)
  templateLanguage: string;
  @ApiPropertyOptional({
    description: 'Placeholder name to value; for positional placeholders use keys `1`, `2`, ...',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { '1': 'Ann', '2': 'Tuesday 10:00' },
  })
  @IsOptional()
  @IsVariables()
  variables?: Record<string, string>;
}

export type SendMessageDto = SendTextMessageDto | SendTemplateMessageDto;
