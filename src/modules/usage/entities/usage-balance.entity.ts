import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAt } from '../../../common/entities/timestamps';

/**
 * One row per organization: the lock that serializes reservations and settlements (SELECT ... FOR UPDATE), and
 * the current balance, always equal to the newest ledger row's `balanceAfterMins`.
 */
@Entity('usage_balances')
export class UsageBalance {
  @PrimaryColumn('uuid') organizationId: string;
  @Column('integer', { default: 0 }) balanceMins: number;
  /** Minutes held by calls being dispatched or in progress (part of balanceMins). */
  @Column('integer', { default: 0 }) reservedMins: number;
  /** createdAt of the newest ledger row: each new row is stamped strictly later, so rows chain in order. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastEntryAt: Date | null;
  @UpdatedAt() updatedAt: Date;
}
