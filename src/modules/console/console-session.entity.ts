import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/**
 * A signed-in console operator. Only the SHA-256 of the session token is stored, so a database read does not
 * yield a usable cookie. `subject` says who signed in: `admin` (the ADMIN_TOKEN holder, every organization);
 * an OIDC organization member would be `oidc:<issuer>#<sub>` with `organizationId` set (docs/console.md).
 */
@Entity('console_sessions')
export class ConsoleSession {
  @PrimaryColumn('uuid') id: string;
  @Index({ unique: true }) @Column('bytea') tokenHash: Buffer;
  @Column('text') subject: string;
  /** Null for the admin, who may act on every organization; set for a future organization-member session. */
  @Column('uuid', { nullable: true }) organizationId: string | null;
  /**
   * SHA-256 of the ADMIN_TOKEN that opened the session: once the token changes, no session opened with the old one
   * is accepted. Null (sessions opened before sessions were bound) never matches.
   */
  @Column('bytea', { nullable: true }) adminTokenHash: Buffer | null;
  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
  @CreatedAt() createdAt: Date;
}
