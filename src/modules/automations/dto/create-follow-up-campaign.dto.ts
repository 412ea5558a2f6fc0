import { IsOptional, IsUUID } from 'class-validator';

export class CreateFollowUpCampaignDto {
  @IsOptional() @IsUUID() caseId?: string;
  @IsOptional() @IsUUID() assistantConfigId?: string;
}
