import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/** A named set of contacts; read-only through the API, created in the dashboard. */
@Entity('contact_groups')
export class ContactGroup {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @CreatedAt() createdAt: Date;
}
