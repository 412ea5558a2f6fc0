import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { TEMPLATE_STATUSES, TemplateStatus } from '../messaging-template.entity';

export class CreateMessagingTemplateDto {
  @IsString() @Length(1, 512) name: string;
  @IsString() @Length(1, 20) language: string;
  @IsOptional() @IsIn(TEMPLATE_STATUSES) status?: TemplateStatus;
  @IsString() @Length(1, 1024) body: string;
}
