import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Allocation } from '../allocation';
import { CreatedAt } from '../../../common/entities/timestamps';

export type ReservationStatus = 'reserved' | 'settled';

/** The minute a call's dispatch holds, and on which grants; one per call, replaced by its settlement. */
@Entity('call_reservations')
@Index('ix_call_reservations_open', ['organizationId'], {
  where: `status = 'reserved'`,
})
export class CallReservation {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Index('ux_call_reservations_call', { unique: true })
  @Column('uuid')
  callId: string;
  @Column('jsonb', { default: () => "'[]'" }) allocations: Allocation[];
  /** True when the plan covered the call at dispatch (complimentary): nothing was held. */
  @Column('boolean', { default: false }) covered: boolean;
  @Column('text') status: ReservationStatus;
  @CreatedAt() createdAt: Date;
}
