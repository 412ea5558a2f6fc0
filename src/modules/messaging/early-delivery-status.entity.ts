import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DeliveryStatus } from './message.entity';

/**
 * A provider status report about a message we have not stored yet: the provider may report `sent` (or `failed`)
 * before its answer to our send reaches us and our row commits. Kept here and applied when the row is stored;
 * reports about messages that never become ours (another app on the same number) are dropped after an hour.
 */
@Entity('early_delivery_statuses')
@Index('ix_early_delivery_statuses_received', ['receivedAt'])
export class EarlyDeliveryStatus {
  @PrimaryColumn('uuid') accountId: string;
  @PrimaryColumn('text') providerMessageId: string;
  @PrimaryColumn('text') status: DeliveryStatus;
  @Column('integer', { nullable: true }) errorCode: number | null;
  @Column('text', { nullable: true }) errorTitle: string | null;
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' }) receivedAt: Date;
}
