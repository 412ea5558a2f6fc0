import { ApiProperty } from '@nestjs/swagger';
import { MessagingTemplate, TEMPLATE_STATUSES, TemplateStatus } from './messaging-template.entity';

/** A message template of an account (POST /admin/v1/messaging-accounts/{id}/templates). */
export class MessagingTemplateResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) accountId: string;
  @ApiProperty({ example: 'appointment_reminder' }) name: string;
  @ApiProperty({ example: 'en_US' }) language: string;
  @ApiProperty({ enum: TEMPLATE_STATUSES, description: 'Only APPROVED templates can be sent' }) status: TemplateStatus;
  @ApiProperty({ example: 'Hi {{1}}, your appointment is on {{2}}.' }) body: string;

  static from(t: MessagingTemplate): MessagingTemplateResponse {
    return { id: t.id, accountId: t.accountId, name: t.name, language: t.language, status: t.status, body: t.body };
  }
}

/** What a simulated inbound message did (POST /admin/v1/simulator/inbound-messages). */
export class SimulatedInboundMessageResponse {
  @ApiProperty({ format: 'uuid', description: 'The stored message (same as `messageId`)' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The conversation it joined or opened' }) conversationId: string;
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ description: 'The `messageId` given was already delivered: nothing changed, the first is returned' })
  duplicate: boolean;
}
