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
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the provider last told us about it (a sync or a status webhook); null: recorded by hand',
  })
  syncedAt: string | null;

  static from(t: MessagingTemplate): MessagingTemplateResponse {
    return {
      id: t.id,
      accountId: t.accountId,
      name: t.name,
      language: t.language,
      status: t.status,
      body: t.body,
      syncedAt: t.syncedAt?.toISOString() ?? null,
    };
  }
}

/** What a template sync did (POST /admin/v1/messaging-accounts/{id}/templates/sync). */
export class TemplateSyncResponse {
  @ApiProperty({ format: 'uuid', description: 'The messaging account' }) id: string;
  @ApiProperty({ description: 'Templates the provider listed, now stored as it has them' }) synced: number;
  @ApiProperty({ description: 'Stored templates the provider no longer lists, removed' }) removed: number;
  @ApiProperty({ type: [MessagingTemplateResponse] }) templates: MessagingTemplateResponse[];
}

/** What a simulated inbound message did (POST /admin/v1/simulator/inbound-messages). */
export class SimulatedInboundMessageResponse {
  @ApiProperty({ format: 'uuid', description: 'The stored message (same as `messageId`)' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The conversation it joined or opened' }) conversationId: string;
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ description: 'The `messageId` given was already delivered: nothing changed, the first is returned' })
  duplicate: boolean;
}
