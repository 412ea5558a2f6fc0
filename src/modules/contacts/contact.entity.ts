import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

/** A person the organization calls or messages. Phone is unique per organization and world (enforced by the database). */
@Entity('contacts')
@Index('ux_contacts_org_phone', ['organizationId', 'livemode', 'phone'], { unique: true })
@Index('ix_contacts_org_created', ['organizationId', 'createdAt', 'id'])
// Search indexes on expressions (pg_trgm GIN) live in migration ContactsSearch; TypeORM cannot describe them, so
// they are declared here only to keep the schema builder (and `npm run db:check`) from dropping them.
@Index('ix_contacts_title_trgm', { synchronize: false })
@Index('ix_contacts_phone_digits_trgm', { synchronize: false })
@Index('ix_contacts_org_title_prefix', { synchronize: false })
@Index('ix_contacts_org_phone_digits_prefix', { synchronize: false })
@Index('ix_contacts_tags', { synchronize: false })
export class Contact {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  /** The world the row belongs to (README: "Test and live"): false for test data. */
  @Column('boolean', { default: true }) livemode: boolean;
  @Column('text') title: string;
  /** E.164. */
  @Column('text') phone: string;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) notes: string | null;
  @Column('text', { array: true, default: () => "'{}'" }) tags: string[];
  @Column('jsonb', { default: () => "'{}'" }) customFields: Record<string, unknown>;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
