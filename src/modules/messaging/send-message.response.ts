import { MESSAGE_TYPES } from './dto/send-message.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SentTemplateRef {
  @ApiProperty({ example: 'appointment_reminder' }) name: string;
  @ApiProperty({ example: 'en_US' }) language: string;
}

export class SendMessageResponse {
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ enum: MESSAGE_TYPES }) type: string;
  @ApiPropertyOptional({ type: SentTemplateRef, description: 'Template variant only' }) template?: SentTemplateRef;
}
