import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { CAMPAIGN_BOUNDS, RETRYABLE_REASONS } from '../../audiences/campaign-bounds';
import { SendTemplateMessageDto } from '../../messaging/dto/send-message.dto';
import { AssistantConfigIdField, CaseIdField } from './run-with-fields';

/** The template a message follow-up sends: the fields and bounds of `POST /api/v1/messaging/messages`. */
export class FollowUpMessageDto extends PickType(SendTemplateMessageDto, [
  'templateName',
  'templateLanguage',
  'variables',
]) {}

export class CreateFollowUpCampaignDto {
  @CaseIdField()
  caseId?: string;
  @AssistantConfigIdField()
  assistantConfigId?: string;

  /* The dialer (extension): delaySeconds and from together make the follow-up call; without them, a record. */

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: CAMPAIGN_BOUNDS.retryDelaySeconds,
    example: 3600,
    description: 'Extension: seconds between the triggering call and the follow-up call; with `from`',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(CAMPAIGN_BOUNDS.retryDelaySeconds)
  delaySeconds?: number;
  @ApiPropertyOptional({ example: '+14155550100', description: "Extension: the follow-up call's caller ID" })
  @IsOptional()
  @IsE164()
  from?: string;

  /**
   * The dialer (extension): an approved template sent to the number in the organization's conversation with it,
   * when one exists, as soon as the call ends.
   */
  @ApiPropertyOptional({
    type: FollowUpMessageDto,
    description: 'Extension: the template sent after a triggering call',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FollowUpMessageDto)
  message?: FollowUpMessageDto;

  /** endedReasons that trigger the follow-up; default customer-did-not-answer and voicemail-reached. */
  @ApiPropertyOptional({
    enum: RETRYABLE_REASONS,
    isArray: true,
    minItems: 1,
    uniqueItems: true,
    default: ['customer-did-not-answer', 'voicemail-reached'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(RETRYABLE_REASONS, { each: true })
  triggerOn?: string[];

  /** Only calls of this case trigger it; omitted: any outbound call that is not itself a follow-up. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  triggerCaseId?: string;
}
