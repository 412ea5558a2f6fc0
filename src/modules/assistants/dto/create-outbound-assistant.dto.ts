import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { VoicemailPolicyDto, VoicemailPolicyField } from '../../call-outcomes/voicemail-policy';
import { DEFAULT_TRANSCRIBER, ModelConfigDto, TranscriberConfigDto, VoiceConfigDto } from './assistant-configs.dto';

export class CreateOutboundAssistantDto {
  @IsString() @Length(1, 200) name: string;

  @ApiProperty({ type: VoiceConfigDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => VoiceConfigDto)
  voice: VoiceConfigDto;

  @ApiProperty({ type: ModelConfigDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => ModelConfigDto)
  model: ModelConfigDto;

  @ApiPropertyOptional({ type: TranscriberConfigDto, description: `Default: ${JSON.stringify(DEFAULT_TRANSCRIBER)}` })
  @IsOptional()
  @ValidateNested()
  @Type(() => TranscriberConfigDto)
  transcriber?: TranscriberConfigDto;

  @IsOptional() @IsString() @MaxLength(1000) description?: string;

  /** Setting true unsets the organization's previous default. */
  @IsOptional() @IsBoolean() isDefault?: boolean;

  /** Used only when neither the call request nor its case supplies one. */
  @IsOptional() @IsString() @MaxLength(1000) firstMessage?: string;

  /** Used only when neither the call request nor its case supplies one; supports `{{variables}}`. */
  @IsOptional() @IsString() @MaxLength(50_000) systemPrompt?: string;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() dialKeypadFunctionEnabled?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() backchannelingEnabled?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() backgroundDenoisingEnabled?: boolean;

  @VoicemailPolicyField("the assistant's")
  voicemail?: VoicemailPolicyDto;
}
