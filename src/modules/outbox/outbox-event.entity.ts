import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A domain event written in the same transaction as the change it describes, then relayed to the queue by
 * the worker role. Nothing is lost between commit and enqueue: an unrelayed row is simply relayed later.
 */
@Entity('outbox_events')
@Index('ix_outbox_unrelayed', ['id'], { where: 'relayed_at IS NULL' })
@Index('ix_outbox_unprocessed', ['relayedAt'], { where: 'processed_at IS NULL AND relayed_at IS NOT NULL' })
export class OutboxEvent {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  /** Public, stable id of the event: the webhook `X-Webhook-Id` is derived from it. */
  @Index({ unique: true }) @Column('uuid') eventId: string;
  @Column('uuid') organizationId: string;
  /** The world of what the event describes; webhook endpoints of that world only receive it. */
  @Column('boolean', { default: true }) livemode: boolean;
  @Column('text') type: string;
  @Column('jsonb') data: Record<string, unknown>;
  @Column({ type: 'timestamptz', precision: 3 }) occurredAt: Date;
  @Index() @Column({ type: 'timestamptz', precision: 3, nullable: true }) relayedAt: Date | null;
  /**
   * Set once every listener handled the event. Relayed but unprocessed past the grace period means its job was
   * lost with the queue store: OutboxReplayJob enqueues it again.
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) processedAt: Date | null;
}
