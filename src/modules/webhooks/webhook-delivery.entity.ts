import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/**
 * One delivery attempt, kept so an operator can see why an endpoint was disabled. Rows go with their endpoint
 * and are pruned after a retention period. A delivery (the API's unit) is the attempts sharing one `webhookId`.
 */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt'])
@Index('ix_webhook_deliveries_webhook_id', ['webhookId', 'id'])
export class WebhookDelivery {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpoint;
  @Column('uuid') endpointId: string;
  @Column('uuid') eventId: string;
  @Column('text') eventType: string;
  /** The `X-Webhook-Id` sent: the same on every attempt of one event to one endpoint. */
  @Column('uuid') webhookId: string;
  /** 1 for the first try, 2.. for retries. */
  @Column('int') attempt: number;
  @Column('boolean') success: boolean;
  @Column('int', { nullable: true }) statusCode: number | null;
  @Column('int') durationMs: number;
  /** At most 2 KB of the response body. */
  @Column('text', { nullable: true }) responseExcerpt: string | null;
  @Column('text', { nullable: true }) error: string | null;
  @Index() @CreatedAt() createdAt: Date;
}
