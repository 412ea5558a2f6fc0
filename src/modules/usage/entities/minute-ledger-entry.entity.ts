import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../../common/entities/timestamps';

export const LEDGER_TYPES = [
  'inbound_call',
  'outbound_call',
  'monthly_renewal',
  'addon_purchase',
  'admin_adjustment',
  'coupon_redemption',
  'trial_activation',
  'trial_conversion',
  'trial_expiration',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
export const CALL_LEDGER_TYPES: readonly LedgerType[] = ['inbound_call', 'outbound_call'];
/** One call row per call: the backstop that makes settlement idempotent. */
export const CALL_LEDGER_ROW_UNIQUE = 'ux_minute_ledger_call';

/**
 * Append-only: every balance movement, with the balance right after it, so the balance is always the newest
 * row and never recomputed. Call rows are unique per call (settlement is idempotent).
 */
@Entity('minute_ledger')
@Index('ix_minute_ledger_org_created', ['organizationId', 'createdAt', 'id'])
@Index('ix_minute_ledger_org_calls', ['organizationId', 'createdAt', 'id'], {
  where: `type IN ('inbound_call', 'outbound_call')`,
})
@Index(CALL_LEDGER_ROW_UNIQUE, ['callId'], {
  unique: true,
  where: `call_id IS NOT NULL AND type IN ('inbound_call', 'outbound_call')`,
})
export class MinuteLedgerEntry {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') type: LedgerType;
  @Column('integer') amountMins: number;
  @Column('integer') balanceAfterMins: number;
  @Column('double precision', { nullable: true }) durationMins: number | null;
  @Column('boolean', { default: false }) includedInPlan: boolean;
  @Column('text') description: string;
  @Column('text') productType: string;
  @Column('text', { nullable: true }) providerCallId: string | null;
  @Column('uuid', { nullable: true }) callId: string | null;
  /** Started minutes beyond the call's allocation (call rows only): recorded, never charged. */
  @Column('integer', { default: 0 }) excessMins: number;
  @CreatedAt() createdAt: Date;
}
