import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Length } from 'class-validator';

export class CreateInboundAssistantDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Front desk' })
  @IsString()
  @Length(1, 200)
  name: string;
  @ApiProperty({
    format: 'uuid',
    example: '0190f0c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    description: 'A prompt-library entry of the organization (POST /admin/v1/organizations/{orgId}/prompts)',
  })
  @IsUUID()
  systemPromptId: string;
}
