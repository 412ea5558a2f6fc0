import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { MEDIA_KINDS, MediaKind } from '../message-payload';
import { MediaSourceDto, TemplateButtonDto, TemplateHeaderDto } from './template-parameters.dto';

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

/** Spec: a free-form text is at most 4,096 characters. */
export const MESSAGE_TEXT_MAX_LENGTH = 4096;

export const MESSAGE_TYPES = ['text', 'template', ...MEDIA_KINDS] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A free-form message; only inside the 24 hours after the user's last message. */
export class SendTextMessageDto {
  @ApiProperty({ enum: ['text'] }) @Equals('text') type: 'text';
  @ApiProperty({ format: 'uuid' }) @IsUUID() conversationId: string;
  @ApiProperty({ maxLength: MESSAGE_TEXT_MAX_LENGTH, example: 'Your appointment is confirmed.' })
  @IsString()
  @Length(1, MESSAGE_TEXT_MAX_LENGTH)
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
  @ApiPropertyOptional({
    type: () => TemplateHeaderDto,
    description:
      "Extension: the parameter of the template's header (a text header's placeholder, or a media header's file)",
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateHeaderDto)
  header?: TemplateHeaderDto;
  @ApiPropertyOptional({
    type: () => [TemplateButtonDto],
    maxItems: 10,
    description: "Extension: parameters of the template's buttons (quick-reply payloads, dynamic URL suffixes)",
  })
  @IsOptional()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => TemplateButtonDto)
  buttons?: TemplateButtonDto[];
}

/** Extension: a media file by link or by the provider's media id; inside the 24-hour window, like text. */
export class SendMediaMessageDto extends MediaSourceDto {
  @ApiProperty({ enum: MEDIA_KINDS }) @IsIn(MEDIA_KINDS) type: MediaKind;
  @ApiProperty({ format: 'uuid' }) @IsUUID() conversationId: string;
  @ApiPropertyOptional({ maxLength: 1024, description: 'image, video and document only' })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  caption?: string;
  @ApiPropertyOptional({ maxLength: 240, description: 'document only: the name the user sees' })
  @IsOptional()
  @IsString()
  @Length(1, 240)
  filename?: string;
}

export type SendMessageDto = SendTextMessageDto | SendTemplateMessageDto | SendMediaMessageDto;
