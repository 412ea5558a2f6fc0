import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { DOMAIN_EVENT_TYPES, DomainEventType } from '../../outbox/domain-event';

export const MAX_URL_LENGTH = 2048;

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://example.com/hooks/voice',
    maxLength: MAX_URL_LENGTH,
    description: "HTTPS URL to a public address; http or https inside the operator's `WEBHOOK_PRIVATE_NETWORKS`",
  })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url: string;

  @ApiProperty({ enum: DOMAIN_EVENT_TYPES, isArray: true, minItems: 1, maxItems: 10, example: ['call.ended'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ArrayUnique()
  @IsIn(DOMAIN_EVENT_TYPES, { each: true })
  events: DomainEventType[];

  @ApiProperty({ required: false, maxLength: 500, example: 'CRM sync' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}
