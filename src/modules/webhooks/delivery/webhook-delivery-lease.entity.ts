import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEndpoint } from '../webhook-endpoint.entity';

/**
 * One delivery attempt that holds, or waits for, one of its endpoint's in-flight slots. PostgreSQL decides the
 * per-endpoint limit for every worker process at once; a crashed worker's slot frees itself when its lease
 * expires (the timeout plus a margin, past which no attempt can still be running). Rows go with their endpoint.
 */
@Entity('webhook_delivery_leases')
@Index('ix_webhook_delivery_leases_endpoint', ['endpointId', 'running', 'since'])
export class WebhookDeliveryLease {
  /** The attempt's BullMQ job id (deterministic per event, endpoint and attempt). */
  @PrimaryColumn('text') jobId: string;
  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpoint;
  @Column('uuid') endpointId: string;
  /** True: sending now. False: parked until a slot frees (woken in `since` order). */
  @Column('boolean') running: boolean;
  @Column({ type: 'timestamptz', precision: 3 }) since: Date;
  /** Running leases only: when the slot counts as free again even if nobody released it. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) expiresAt: Date | null;
}
