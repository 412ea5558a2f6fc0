import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAt } from '../../common/entities/timestamps';

export const NUMBER_HEALTH_STATUSES = ['healthy', 'watch', 'degraded'] as const;
export type NumberHealthStatus = (typeof NUMBER_HEALTH_STATUSES)[number];

/**
 * A number's standing in one world: whether its last placed calls answered, and the status they last gave it.
 * Its row lock orders every recording for the number, whichever process ends the call.
 */
@Entity('number_health')
export class NumberHealth {
  @PrimaryColumn('uuid') phoneNumberId: string;
  @PrimaryColumn('boolean') livemode: boolean;
  @Column('uuid') organizationId: string;
  /** The last RECENT_WINDOW placed calls, oldest first: true where a person answered. */
  @Column('boolean', { array: true, default: () => "'{}'" }) recent: boolean[];
  @Column('text', { default: 'healthy' }) status: NumberHealthStatus;
  @UpdatedAt() updatedAt: Date;
}
