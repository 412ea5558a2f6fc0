import { ApiProperty } from '@nestjs/swagger';
import { Message } from './message.entity';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['inbound', 'outbound'] }) direction: string;
  @ApiProperty({ description: '`user` (inbound) or `bot`', example: 'user' }) senderType: string;
  @ApiProperty({ description: '`text`, `template`, or an inbound media type', example: 'text' }) messageType: string;
  @ApiProperty() text: string;
  @ApiProperty({ type: String, nullable: true }) mediaUrl: string | null;
  @ApiProperty({ type: String, nullable: true }) mediaCaption: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Outbound: accepted, sent, delivered, read or failed; inbound: null',
    example: 'read',
  })
  deliveryStatus: string | null;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static from(m: Message): MessageResponse {
    return {
      id: m.id,
      direction: m.direction,
      senderType: m.senderType,
      messageType: m.messageType,
      text: m.text,
      mediaUrl: m.mediaUrl,
      mediaCaption: m.mediaCaption,
      deliveryStatus: m.deliveryStatus,
      timestamp: m.timestamp.toISOString(),
      createdAt: m.createdAt.toISOString(),
      livemode: m.livemode,
    };
  }
}
