import { ApiProperty } from '@nestjs/swagger';
import { DOMAIN_EVENT_TYPES } from '../outbox/domain-event';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { displayedWebhookUrl } from './webhook-url';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'https://example.com/hooks/voice' }) url: string;
  @ApiProperty({ enum: DOMAIN_EVENT_TYPES, isArray: true, example: ['call.ended', 'call.failed'] }) events: string[];
  @ApiProperty() isActive: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'CRM sync' }) description: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static from(endpoint: WebhookEndpoint): WebhookEndpointResponse {
    return {
      id: endpoint.id,
      url: displayedWebhookUrl(endpoint.url),
      events: endpoint.events,
      isActive: endpoint.isActive,
      description: endpoint.description,
      createdAt: endpoint.createdAt.toISOString(),
      livemode: endpoint.livemode,
    };
  }
}

/** The create response: the endpoint plus its signing secret, shown only here and on rotation. */
export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ description: 'Signing secret; returned only on creation and on rotation', example: 'whsec_3f9a...' })
  secret: string;
}

export class WebhookSecretResponse {
  @ApiProperty({
    description: 'The new signing secret; the previous one stops working at once',
    example: 'whsec_3f9a...',
  })
  secret: string;
}
