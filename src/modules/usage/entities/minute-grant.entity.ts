import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { GrantKind } from '../allocation';

/**
 * A bucket of minutes: included minutes of one subscription period (expiring at its end), trial minutes
 * (expiring with the trial) or a top-up (carrying forward). Calls draw from these; the ledger records each move.
 */
@Entity('minute_grants')
@Index('ix_minute_grants_open', ['organizationId'], { where: 'closed = false' })
export class MinuteGrant {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') kind: GrantKind;
  @Column('uuid', { nullable: true }) subscriptionId: string | null;
  @Column('integer') grantedMins: number;
  @Column('integer') remainingMins: number;
  @Column('integer', { default: 0 }) reservedMins: number;
  /** Started minutes of calls billed to this allocation: charged ones plus any excess beyond it (never charged). */
  @Column('integer', { default: 0 }) usedMins: number;
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  periodStart: Date | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  expiresAt: Date | null;
  @Column('boolean', { default: false }) closed: boolean;
  @Column({ type: 'timestamptz', precision: 3 }) grantedAt: Date;
}
