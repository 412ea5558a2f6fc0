import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

/** A tenant. Every API key binds exactly one; `hasProfile` false means GET /organization answers 404. */
@Entity('organizations')
export class Organization {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('boolean', { default: true }) hasProfile: boolean;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) contactEmail: string | null;
  @Column('text', { nullable: true }) contactPhone: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
