import { ApiProperty } from '@nestjs/swagger';
import { DOMAIN_EVENT_TYPES } from '../../outbox/domain-event';
import { WEBHOOK_TEST_EVENT } from '../webhook-test-event';
import { WebhookDelivery } from '../webhook-delivery.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_EVENTS = [...DOMAIN_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;

export class WebhookAttemptResponse {
  @ApiProperty({ description: '1 for the first try, then 2, 3.. (automatic retries, then re-sends)', example: 1 })
  attempt: number;
  @ApiProperty({ format: 'date-time', description: 'When the attempt finished' }) at: string;
  @ApiProperty() success: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Null when no response came back', example: 200 })
  statusCode: number | null;
  @ApiProperty({ description: 'Request to last response byte, in milliseconds', example: 84 }) durationMs: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The first 2 KB of the response body',
    example: 'ok',
  })
  responseExcerpt: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'non-2xx response (status 500)' }) error: string | null;

  static from(row: WebhookDelivery): WebhookAttemptResponse {
    return {
      attempt: row.attempt,
      at: row.createdAt.toISOString(),
      success: row.success,
      statusCode: row.statusCode,
      durationMs: row.durationMs,
      responseExcerpt: row.responseExcerpt,
      error: row.error,
    };
  }
}

/** One event sent to one endpoint, with every attempt it took. */
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'The `X-Webhook-Id` header of every attempt of this delivery' })
  id: string;
  @ApiProperty({ format: 'uuid' }) webhookEndpointId: string;
  @ApiProperty({ format: 'uuid', description: 'The domain event delivered (a fresh id for a test ping)' })
  eventId: string;
  @ApiProperty({ enum: DELIVERY_EVENTS, example: 'call.ended' }) event: string;
  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      '`delivered`: an attempt got a 2xx. `failed`: the last retry failed (or the endpoint is disabled, or it was a test ping). `pending`: an automatic retry is scheduled',
  })
  status: DeliveryStatus;
  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Oldest first' }) attempts: WebhookAttemptResponse[];
  @ApiProperty({ format: 'date-time', description: 'When the first attempt finished' }) createdAt: string;
}

export class WebhookRetryResponse {
  @ApiProperty({ format: 'uuid', description: 'The delivery (its `X-Webhook-Id`)' }) deliveryId: string;
  @ApiProperty({ description: 'The number the queued attempt will carry in `attempts`', example: 5 })
  attempt: number;
}

export class WebhookRecoverResponse {
  @ApiProperty({ description: 'Failed deliveries queued for a new attempt', example: 12 }) queued: number;
  @ApiProperty({ description: 'More failed deliveries remain after this batch' }) hasMore: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When `hasMore`: the `since` of the next call (allowed a minute later)',
  })
  nextSince: string | null;
}
