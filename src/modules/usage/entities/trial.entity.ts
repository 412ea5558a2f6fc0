import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../../common/entities/timestamps';

export type TrialStatus = 'active' | 'converted' | 'expired';

/** A free trial: minutes granted for a window. One per organization. */
@Entity('trials')
@Index('ix_trials_due', ['endsAt'], { where: `status = 'active'` })
export class Trial {
  @PrimaryColumn('uuid') id: string;
  @Index('ux_trials_org', { unique: true })
  @Column('uuid')
  organizationId: string;
  @Column({ type: 'timestamptz', precision: 3 }) startedAt: Date;
  @Column({ type: 'timestamptz', precision: 3 }) endsAt: Date;
  @Column('integer') grantedMins: number;
  @Column('text') status: TrialStatus;
  @CreatedAt() createdAt: Date;
}
