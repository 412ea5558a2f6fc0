import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAt } from '../../common/entities/timestamps';

/** An organization's admission limits; an organization without a row has the defaults (DEFAULT_LIMITS). */
@Entity('organization_limits')
export class OrganizationLimit {
  @PrimaryColumn('uuid') organizationId: string;
  @Column('int') maxConcurrentCalls: number;
  /** Slots of maxConcurrentCalls that outbound calls leave free for inbound callers. */
  @Column('int', { default: 0 }) inboundReserve: number;
  @UpdatedAt() updatedAt: Date;
}
