import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';
import { Organization } from '../organizations/organization.entity';

/** An API key, stored only as the SHA-256 of the key; the plain key is shown once, at creation. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id' })
  organization?: Organization;
  @Column('text') name: string;
  @Column('text') environment: 'live' | 'test';
  @Index({ unique: true }) @Column('bytea') keyHash: Buffer;
  /** Non-secret start of the key, so an operator can tell keys apart. */
  @Column('text') hint: string;
  @Column('text', { array: true }) scopes: string[];
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
  /** Refreshed at most once a minute per key and process (ApiKeysService.touch), so reads stay writes-free. */
  @Column('timestamptz', { nullable: true }) lastUsedAt: Date | null;
  @CreatedAt() createdAt: Date;
}
