import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SentTemplateRef {
  @ApiProperty({ example: 'appointment_reminder' }) name: string;
  @ApiProperty({ example: 'en_US' }) language: string;
}

export class SendMessageResponse {
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ enum: ['text', 'template'] }) type: string;
  @ApiPropertyOptional({ type: SentTemplateRef, description: 'Template variant only' }) template?: SentTemplateRef;
}
