import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class VoiceConfigDto {
  @IsString() @Length(1, 100) provider: string;
  @IsString() @Length(1, 200) voiceId: string;
  @IsOptional() @IsString() @Length(1, 200) model?: string;
  @IsOptional() @IsString() @Length(1, 50) language?: string;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) stability?: number;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) similarityBoost?: number;
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) speed?: number;
}

export const DEFAULT_TEMPERATURE = 0.7;

export class ModelConfigDto {
  @IsString() @Length(1, 100) provider: string;
  @IsString() @Length(1, 200) model: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 2, default: DEFAULT_TEMPERATURE })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;
}

/** Used when an assistant is created without a transcriber. */
export const DEFAULT_TRANSCRIBER = { provider: 'deepgram', model: 'nova-2', language: 'en' } as const;

export class TranscriberConfigDto {
  @IsString() @Length(1, 100) provider: string;
  @IsString() @Length(1, 200) model: string;
  @ApiPropertyOptional({ default: DEFAULT_TRANSCRIBER.language })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  language?: string;
}
