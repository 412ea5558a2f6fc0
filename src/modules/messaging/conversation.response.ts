import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONVERSATION_STATUSES, Conversation, ConversationStatus } from './conversation.entity';
import { MessageResponse } from './message.response';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

export class ConversationResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: CONVERSATION_STATUSES }) status: ConversationStatus;
  @ApiProperty({
    description: 'E.164; empty for a user the provider names only by business-scoped id (see `waUserId`)',
    example: '+14155550187',
  })
  waUserPhone: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "Extension: the provider's business-scoped id of the user (WhatsApp `user_id`), when it sent one",
    example: 'US.13491208655302741918',
  })
  waUserId: string | null;
  @ApiProperty({ example: 'Ann Lee' }) waUserName: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Linked contact' })
  contactId: string | null;
  @ApiProperty({ format: 'uuid', description: 'Messaging account ID' }) integrationId: string;
  @ApiProperty() lastMessagePreview: string;
  @ApiProperty({ type: String, enum: ['inbound', 'outbound'], nullable: true }) lastMessageDirection: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUserMessageAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the 24-hour free-form window closes',
  })
  sessionExpiresAt: string | null;
  @ApiProperty() messageCount: number;
  @ApiProperty({ type: String, nullable: true }) aiSummary: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiLivemode() livemode: boolean;

  static from(c: Conversation): ConversationResponse {
    return {
      id: c.id,
      status: c.status,
      waUserPhone: c.waUserPhone,
      waUserId: c.waUserId,
      waUserName: c.waUserName,
      contactId: c.contactId,
      integrationId: c.integrationId,
      lastMessagePreview: c.lastMessagePreview,
      lastMessageDirection: c.lastMessageDirection,
      lastUserMessageAt: c.lastUserMessageAt?.toISOString() ?? null,
      sessionExpiresAt: c.sessionExpiresAt?.toISOString() ?? null,
      messageCount: c.messageCount,
      aiSummary: c.aiSummary,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      livemode: c.livemode,
    };
  }
}

export class ConversationDetailResponse extends ConversationResponse {
  @ApiProperty({ type: [MessageResponse], description: 'Up to the 50 most recent messages, oldest first' })
  messages: MessageResponse[];
}
