import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

export const DO_NOT_CALL_SOURCES = ['api', 'message', 'console'] as const;
export type DoNotCallSource = (typeof DO_NOT_CALL_SOURCES)[number];

/**
 * One listing of a number on an organization's do-not-call ledger. A removal stamps `removedAt` instead of
 * deleting, so the ledger keeps who listed a number, why, and when it was lifted; at most one listing per
 * number is active.
 */
@Entity('do_not_call_entries')
@Index('ux_do_not_call_active', ['organizationId', 'livemode', 'number'], { unique: true, where: 'removed_at IS NULL' })
@Index('ix_do_not_call_org_created', ['organizationId', 'createdAt', 'id'])
export class DoNotCallEntry {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  /** The world the row belongs to (README: "Test and live"): false for test data. */
  @Column('boolean', { default: true }) livemode: boolean;
  /** E.164. */
  @Column('text') number: string;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('text') source: DoNotCallSource;
  @CreatedAt() createdAt: Date;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) removedAt: Date | null;
  @Column('text', { nullable: true }) removedBy: DoNotCallSource | null;
}
