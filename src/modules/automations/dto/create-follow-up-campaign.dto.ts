import { PickType } from '@nestjs/swagger';
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

/** The template a message follow-up sends: the fields and bounds of `POST /api/v1/messaging/messages`. */
export class FollowUpMessageDto extends PickType(SendTemplateMessageDto, [
  'templateName',
  'templateLanguage',
  'variables',
]) {}

export class CreateFollowUpCampaignDto {
  @IsOptional() @IsUUID() caseId?: string;
  @IsOptional() @IsUUID() assistantConfigId?: string;

  /* The dialer (extension): delaySeconds and from together make the follow-up call; without them, a record. */

  @IsOptional() @IsInt() @Min(0) @Max(CAMPAIGN_BOUNDS.retryDelaySeconds) delaySeconds?: number;
  @IsOptional() @IsE164() from?: string;

  /**
   * The dialer (extension): an approved template sent to the number in the organization's conversation with it,
   * when one exists, as soon as the call ends.
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FollowUpMessageDto)
  message?: FollowUpMessageDto;

  /** endedReasons that trigger the follow-up; default customer-did-not-answer and voicemail-reached. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(RETRYABLE_REASONS, { each: true })
  triggerOn?: string[];

  /** Only calls of this case trigger it; omitted: any outbound call that is not itself a follow-up. */
  @IsOptional() @IsUUID() triggerCaseId?: string;
}
