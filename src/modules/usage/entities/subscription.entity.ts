import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../../common/entities/timestamps';

export const PRODUCT_TYPES = ['outreach', 'receptionist'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export type SubscriptionStatus = 'active' | 'canceled';

/**
 * A subscription to one plan item (product, tier, quantity). Outreach items include 100/300/800 minutes per unit
 * each period; receptionist items cover inbound calls; complimentary items cover every call.
 */
@Entity('subscriptions')
@Index('ix_subscriptions_org', ['organizationId', 'createdAt'])
@Index('ix_subscriptions_due', ['currentPeriodEnd'], {
  where: `status = 'active'`,
})
export class Subscription {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') productType: ProductType;
  /** 1, 2 or 3 for outreach; null for receptionist and complimentary items. */
  @Column('smallint', { nullable: true }) tier: number | null;
  @Column('integer', { default: 1 }) quantity: number;
  @Column('boolean', { default: false }) complimentary: boolean;
  @Column('text') status: SubscriptionStatus;
  @Column('boolean', { default: false }) enforced: boolean;
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  enforcementStartsAt: Date | null;
  @Column({ type: 'timestamptz', precision: 3 }) currentPeriodStart: Date;
  /** Null: the end was never recorded (open-ended window, docs/contracts/conventions.md, "Usage summary"). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  currentPeriodEnd: Date | null;
  @Column('boolean', { default: false }) cancelAtPeriodEnd: boolean;
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  canceledAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
