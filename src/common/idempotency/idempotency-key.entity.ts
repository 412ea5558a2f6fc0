import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One `Idempotency-Key` of one organization: the request it was first used with and, once done, its response. */
@Entity('idempotency_keys')
export class IdempotencyKey {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('text') key: string;
  /** SHA-256 of method, route and body: the same key with another request is 422 IDEMPOTENCY_KEY_REUSED. */
  @Column('text') requestHash: string;
  @Column('text') state: 'processing' | 'completed';
  /** While processing, a repeat is 409; past this time a crashed attempt may be taken over. */
  @Column('timestamptz') lockedUntil: Date;
  @Column('int', { nullable: true }) responseStatus: number | null;
  @Column('jsonb', { nullable: true }) responseBody: unknown;
  @Index() @Column('timestamptz') expiresAt: Date;
}
