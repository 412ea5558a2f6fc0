import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { DOMAIN_EVENT_TYPES, DomainEventType } from '../../outbox/domain-event';
import { MAX_URL_LENGTH } from './create-webhook.dto';

/** Every field optional; `events` replaces the list; `isActive: true` re-enables and resets the failure count. */
export class UpdateWebhookDto {
  @ApiProperty({ required: false, maxLength: MAX_URL_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiProperty({ required: false, enum: DOMAIN_EVENT_TYPES, isArray: true, minItems: 1, maxItems: 10 })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ArrayUnique()
  @IsIn(DOMAIN_EVENT_TYPES, { each: true })
  events?: DomainEventType[];

  @ApiProperty({ required: false, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean;
}
